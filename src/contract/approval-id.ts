/**
 * Global approval ids: the run's workflow id and the call's id, base64url-encoded together (without padding), so one
 * URL-safe string names a call across all runs. Runs write them into their webhook events, so both ways are written
 * with what Node and the workflow sandbox both have (TextEncoder, TextDecoder, btoa, atob), not with Buffer; the
 * ids are the same bytes as Buffer's base64url of the same JSON (approval-id.test.ts).
 */
export interface ApprovalRef {
  workflowId: string;
  callId: string;
}

export function encodeApprovalId({ workflowId, callId }: ApprovalRef): string {
  const bytes = new TextEncoder().encode(JSON.stringify([workflowId, callId]));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeApprovalId(id: string): ApprovalRef | undefined {
  // As Buffer read them before: base64url or base64, padded (Python's urlsafe_b64encode) or not; nothing else.
  const unpadded = id.replace(/={1,2}$/, '');
  if (!/^[A-Za-z0-9_+/-]*$/.test(unpadded) || unpadded.length % 4 === 1) return undefined;
  try {
    const binary = atob(unpadded.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string' && v.length > 0)) {
      return { workflowId: value[0], callId: value[1] };
    }
  } catch {
    // Not one of ours.
  }
  return undefined;
}
