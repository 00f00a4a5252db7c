/**
 * The host's human-in-the-loop: consulted before a call runs, after it is authorized.
 * Shell tools supply a non-executing inspection (`inspection`, or `inspection_error`
 * when it could not be built); other tools only their arguments. A refusal is an
 * uncharged in-band denial with code `APPROVAL_REFUSED`; a throwing hook refuses.
 */
export interface ApprovalRequest {
  readonly tool: string;
  readonly arguments: unknown;
  readonly inspection?: unknown;
  readonly inspection_error?: string;
}

export type ApprovalVerdict = boolean | { readonly approved: boolean; readonly reason?: string };

export type ApprovalHook = (request: ApprovalRequest) => ApprovalVerdict | Promise<ApprovalVerdict>;

export async function askApproval(
  hook: ApprovalHook,
  request: ApprovalRequest,
): Promise<{ readonly approved: boolean; readonly reason: string }> {
  try {
    const verdict = await hook(Object.freeze(request));
    if (typeof verdict === "boolean")
      return { approved: verdict, reason: "the host's approval hook refused this call" };
    return {
      approved: verdict.approved === true,
      reason: verdict.reason ?? "the host's approval hook refused this call",
    };
  } catch {
    return { approved: false, reason: "the host's approval hook failed, so the call was refused" };
  }
}

/**
 * What `InvokeOptions.approve` rejects with when the hook refused: the registry turns it
 * into the in-band `APPROVAL_REFUSED` denial. Not exported: only the registry makes one.
 */
export class ApprovalRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "ApprovalRefusal";
  }
}
