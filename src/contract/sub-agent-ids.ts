/**
 * How a sub-agent's calls are named where they are decided: a sub-agent's workflow id is its path under the
 * top-level run's (`<root>/<call>/<call>…`), and the top-level run shows each of its calls as `<path>/<its id>`.
 * Runs (for decision tokens and webhook events) and clients (approval ids, status) read both ways here.
 */

/** The path of `workflowId` under the top-level run `rootWorkflowId`: empty for the top-level run itself. */
export function subAgentPath(rootWorkflowId: string, workflowId: string): string {
  return workflowId.startsWith(`${rootWorkflowId}/`) ? workflowId.slice(rootWorkflowId.length + 1) : '';
}

/** The run that owns a call `shownId` names in the run `workflowId`, and its id there; undefined for the run's own. */
export function ownerOfShownCall(workflowId: string, shownId: string): { workflowId: string; callId: string } | undefined {
  const cut = shownId.lastIndexOf('/');
  return cut < 0 ? undefined : { workflowId: `${workflowId}/${shownId.slice(0, cut)}`, callId: shownId.slice(cut + 1) };
}
