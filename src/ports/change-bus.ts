/**
 * A channel every process serving one tracker hears (seed 004 "Transport behavior": change
 * notifications reach listen streams whichever process made the change): what one instance
 * publishes, every subscriber of every instance receives — itself included. Messages are short
 * strings (the domain defines their content); delivery is at most once per subscriber while it
 * is connected, so the domain makes what it sends safe to receive twice by another route.
 */
export interface ChangeBus {
  /** Sends one message to every subscriber (resolves once the channel has it). */
  publish(message: string): Promise<void>;
  /** Receives every message published from now on; returns the function that stops it. */
  subscribe(onMessage: (message: string) => void): () => void;
  /** The longest message the channel carries, in bytes (longer ones are split by the sender). */
  readonly maxMessageBytes: number;
}
