/**
 * Visibility listing that one unreadable run cannot break. The SDK's `client.workflow.list` decodes every memo as it
 * goes and throws on the first it cannot decode (a run started by a client with a payload codec this process lacks,
 * or with a different key), which would hide every other run from `hitl runs`, the inbox and the API. Here each
 * execution is decoded on its own; one whose memo cannot be read is listed without its memo, marked with the reason
 * (`memoUnreadable`: no codec for it here, no such key, or another key under its id).
 */
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
// The SDK's own raw-to-info conversion, so listed runs look exactly like `client.workflow.list` results. It is not
// re-exported from the package root; the version is pinned in package.json and test/run-lists.test.ts covers it.
import { executionInfoFromRaw } from '@temporalio/client/lib/helpers.js';

export type ListedExecution = WorkflowExecutionInfo & { memoUnreadable?: string };

export async function* listExecutions(client: Client, query: string, pageSize = 100): AsyncIterable<ListedExecution> {
  const { namespace, loadedDataConverter } = client.options;
  let nextPageToken: Uint8Array | undefined;
  do {
    const response = await client.workflowService.listWorkflowExecutions({ namespace, query, nextPageToken, pageSize });
    for (const raw of response.executions) {
      try {
        yield await executionInfoFromRaw(raw, loadedDataConverter, raw, namespace);
      } catch (err) {
        // The response is ours alone; a protobuf message keeps its defaults on its prototype, so drop the memo in place.
        raw.memo = null;
        const memoUnreadable = err instanceof Error ? err.message : String(err);
        yield { ...(await executionInfoFromRaw(raw, loadedDataConverter, raw, namespace)), memoUnreadable };
      }
    }
    nextPageToken = response.nextPageToken?.length ? response.nextPageToken : undefined;
  } while (nextPageToken);
}
