/** The HTTP API in-process over a harness's worker, with test defaults; each test names only what it needs. */
import { HitlClient } from '../../src/client/hitl-client.js';
import { createApiApp, type ApiOptions } from '../../src/api/app.js';
import { listen, type Listening } from '../../src/api/listen.js';
import type { Harness } from './harness.js';

export function startTestApi(h: Harness, options: Pick<ApiOptions, 'tokens'> & Partial<ApiOptions>): Promise<Listening> {
  return listen(
    createApiApp({
      hitl: new HitlClient(h.temporal.client, h.taskQueue),
      fourEyes: false,
      bodyLimitBytes: 65_536,
      temporalUiUrl: 'http://ui.test',
      namespace: h.temporal.namespace,
      log: () => {},
      ...options,
    }),
  );
}
