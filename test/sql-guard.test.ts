/**
 * The demo's SQL guard in a real run: an approver approves statements that try to leave the shop database, and
 * SQLite refuses them; the model reads why, and no file appears outside the data directory.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decide, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
const outside = mkdtempSync(path.join(tmpdir(), 'hitl-outside-'));

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    script: {
      conversations: [
        {
          match: 'copy the shop database',
          replies: [
            {
              toolCalls: [
                call('v1', 'execute_sql', { query: `/* x */ VACUUM INTO '${path.join(outside, 'copy.db')}'` }),
                call('v2', 'execute_sql', { query: `-- x\nATTACH '${path.join(outside, 'other.db')}' AS o` }),
                call('v3', 'execute_sql', { query: "SELECT status FROM orders WHERE id = '1237'" }),
              ],
            },
            { content: 'Done.' },
          ],
        },
      ],
    },
  });
});
afterAll(async () => {
  await h?.close();
  rmSync(outside, { recursive: true, force: true });
});

it('refuses an approved VACUUM INTO and ATTACH outside the data directory, and still runs the read', async () => {
  const handle = await h.start({ agent: 'demo', prompt: 'Please copy the shop database somewhere safe' });
  await waitForPending(handle, 3);
  await decide(handle, { decisions: ['call-1', 'call-2', 'call-3'].map((id) => ({ id, type: 'approve' as const })), approver: 'alice' });
  expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Done.' });

  expect(await toolMessages(handle)).toEqual([
    ['v1', 'Error: SQLite refused the statement: cannot VACUUM from within a transaction.\n Please fix your mistakes.'],
    [
      'v2',
      'Error: This statement only changes the connection (a PRAGMA assignment, ATTACH, DETACH or transaction control); ' +
        'each query runs alone on a connection of its own, so it is refused. Query or change the shop tables instead.\n' +
        ' Please fix your mistakes.',
    ],
    ['v3', '[{"status":"open"}]'],
  ]);
  expect(readdirSync(outside)).toEqual([]);
});
