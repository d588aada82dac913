/** The balancer configuration for `upstreams` (loopback ports), listening on `port`, files under `dir`. */
export declare function nginxConfig(dir: string, port: number, upstreams: readonly number[], options?: { readonly workerConnections?: number }): string;
