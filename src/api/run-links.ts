/** Links into the Temporal Web UI for a run, from the API's configuration. */
import type { ApiOptions } from './api-env.js';

export function runLinks(options: Pick<ApiOptions, 'temporalUiUrl' | 'namespace'>) {
  return {
    ui: (workflowId: string) =>
      `${options.temporalUiUrl}/namespaces/${encodeURIComponent(options.namespace)}/workflows/${encodeURIComponent(workflowId)}`,
  };
}
