/** What a destructive operation asks the caller to confirm. */
export interface ConsentRequest {
  readonly action: 'delete' | 'cancel_claimed' | 'take_claim';
  readonly itemId: string;
  readonly title: string;
  /** A sentence a person can answer yes or no to. */
  readonly message: string;
}

/**
 * How a caller answers a consent request: the CLI's --yes or an interactive prompt, MCP's
 * elicitation (MRTR) or an explicit confirm argument. Absent means "cannot ask": the domain
 * then refuses with ConsentRequiredError carrying the request, and writes nothing.
 */
export type ConsentProvider = (request: ConsentRequest) => Promise<boolean> | boolean;
