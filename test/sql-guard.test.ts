/**
 * The demo's SQL guard in a real run: an approver approves statements that try to leave the shop database, and
 * SQLite refuses them; the model reads why, and no file appears outside the data directory. An approved statement
 * that runs past its time budget is stopped, and the worker's event loop turns all the while.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decide, toolMessages, waitForPending } from './helpers/decisions.js';
import { startHarness, type Harness } from './helpers/harness.js';

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
/** The tester's statement: minutes of SQLite (without its LIMIT, forever), which used to block the worker throughout. */
const SLOW_COUNT = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 200000000) SELECT count(*) FROM c';
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
        {
          match: 'count to two hundred million',
          replies: [{ toolCalls: [call('s1', 'execute_sql', { query: SLOW_COUNT })] }, { content: 'Stopped.' }],
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

it('stops an approved statement at its 10 s budget: the model reads why, and the worker never stops answering', async () => {
  const handle = await h.start({ agent: 'demo', prompt: 'Please count to two hundred million' });
  await waitForPending(handle, 1);
  // The worker runs in this process: a timer here fires only while its event loop is free.
  let last = performance.now();
  let longestGap = 0;
  const timer = setInterval(() => {
    longestGap = Math.max(longestGap, performance.now() - last);
    last = performance.now();
  }, 50);
  try {
    await decide(handle, { decisions: [{ id: 'call-1', type: 'approve' }], approver: 'alice' });
    expect(await handle.result()).toMatchObject({ status: 'Completed', output: 'Stopped.' });
  } finally {
    clearInterval(timer);
  }
  expect(await toolMessages(handle)).toEqual([
    [
      's1',
      'Error: The statement ran past 10 s and was stopped; any change it made was undone. ' +
        'Make it do less (a narrower WHERE, a LIMIT) and try again.\n Please fix your mistakes.',
    ],
  ]);
  expect(longestGap).toBeLessThan(3000);
});
