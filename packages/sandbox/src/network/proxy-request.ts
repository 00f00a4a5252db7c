/** What a client asked the egress proxy for, once its opening was parsed. */
export interface ProxyRequest {
  readonly host: string;
  readonly port: number;
  /** Bytes to send upstream first (a rewritten plain-HTTP request head). */
  readonly upstreamPrefix: Buffer;
  /** Answers the client once the upstream connection is up. */
  accept(): Buffer;
  /** Answers the client when the connection is refused by the grant. */
  refuse(reason: string): Buffer;
  /** Answers the client when the call has as many connections open as it may. */
  busy(): Buffer;
  /** Answers the client when the upstream cannot be reached. */
  unreachable(): Buffer;
}

/** A front's verdict on a client's opening. */
export type FrontResult =
  | { readonly kind: "request"; readonly request: ProxyRequest }
  | { readonly kind: "malformed"; readonly answer: Buffer };
