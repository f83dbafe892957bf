/**
 * Global approval ids: the run's workflow id and the model's tool call id, base64url-encoded together, so one
 * URL-safe string names a call across all runs.
 */
export interface ApprovalRef {
  workflowId: string;
  callId: string;
}

export function encodeApprovalId({ workflowId, callId }: ApprovalRef): string {
  return Buffer.from(JSON.stringify([workflowId, callId])).toString('base64url');
}

export function decodeApprovalId(id: string): ApprovalRef | undefined {
  try {
    const value = JSON.parse(Buffer.from(id, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string' && v.length > 0)) {
      return { workflowId: value[0], callId: value[1] };
    }
  } catch {
    // Not one of ours.
  }
  return undefined;
}
