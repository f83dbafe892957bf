/** Each `hitl` command, spawned as a real process against the real dev server and worker. */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';
import type { AgentWorkflowInput } from '../src/schemas/agent-workflow-input.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { startOf, waitFor } from './helpers/history.js';
import { runHitl } from './helpers/cli.js';
import { modelCallRunning } from './helpers/stream.js';

const agent = defineAgent({ ...demoAgent, name: 'clidemo' });
const LONG_ANSWER = 'Watching a run shows the model writing its answer a few words at a time, well before the step ends.';
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });
/** Over the list's 8 KiB of arguments, so lists show a preview of it. */
const BIG_CONTENT = `${'Every refund of the quarter, one line each. '.repeat(250)}THE END`;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    agents: { clidemo: agent },
    streaming: { batchIntervalMs: 100 },
    script: {
      conversations: [
        {
          match: 'cli batch',
          replies: [
            {
              toolCalls: [
                call('a', 'write_file', { path: 'a.txt', content: 'a' }),
                call('b', 'write_file', { path: 'b.txt', content: 'b' }),
                call('c', 'cancel_order', { orderId: '1235' }),
                call('d', 'process_refund', { orderId: '1234', amount: 20000 }),
              ],
            },
            { content: 'batch handled' },
          ],
        },
        {
          match: 'cli long answer',
          replies: [
            { toolCalls: [call('w', 'write_file', { path: 'long.txt', content: 'x' })] },
            { content: LONG_ANSWER, chunkSize: 5, chunkDelayMs: 80 },
          ],
        },
        {
          match: 'cli review',
          replies: [
            {
              toolCalls: [
                call('r1', 'write_file', { path: 'r1.txt', content: 'one' }),
                call('r2', 'write_file', { path: 'r2.txt', content: 'two' }),
                call('r3', 'cancel_order', { orderId: '1236' }),
                call('r4', 'write_file', { path: 'r4.txt', content: 'four' }),
              ],
            },
            { content: 'review handled' },
          ],
        },
        {
          match: 'cli big review',
          replies: [
            { toolCalls: [call('b1', 'write_file', { path: 'big-review.txt', content: BIG_CONTENT })] },
            { content: 'big reviewed' },
          ],
        },
        {
          match: 'cli refund',
          replies: [{ toolCalls: [call('f1', 'process_refund', { orderId: '1234', amount: 20000 })] }, { content: 'refunded' }],
        },
        {
          // Text that would rewrite an approver's terminal if printed raw; JSON.stringify leaves C1 and bidi controls.
          match: 'cli hostile',
          replies: [{ toolCalls: [call('h1', 'write_file', { path: 'h.txt', content: 'x\u009b\u202eINNOCENT' })] }, { content: 'done' }],
        },
      ],
    },
  });
});
afterAll(() => h?.close());

const hitl = (args: string[], options?: Parameters<typeof runHitl>[2]) => runHitl(h, args, options);

async function startRun(prompt: string, pendingCount: number): Promise<string> {
  const started = await hitl(['--json', 'start', '--agent', 'clidemo', '--requested-by', 'cara', prompt]);
  expect(started).toMatchObject({ code: 0, stderr: '' });
  const { workflowId } = JSON.parse(started.stdout);
  await waitFor(async () => JSON.parse((await hitl(['--json', 'pending', workflowId])).stdout).length === pendingCount, 120_000);
  return workflowId;
}

// Every command is a new process that loads TypeScript through tsx: a few seconds each on a busy machine (5 s for
// `hitl --help` at a load of 12 on 2 cores), and a test runs up to a dozen of them.
describe('hitl', { timeout: 240_000 }, () => {
  let runId: string;

  it('start, runs --waiting, show and pending', async () => {
    runId = await startRun('cli batch of calls', 4);
    await waitFor(async () => (await hitl(['runs', '--waiting', '--agent', 'clidemo'])).stdout.includes(runId), 120_000);
    const runs = await hitl(['--json', 'runs', '--waiting', '--agent', 'clidemo']);
    expect(JSON.parse(runs.stdout).find((r: { workflowId: string }) => r.workflowId === runId)).toMatchObject({
      status: 'AwaitingApproval',
      pendingCount: 4,
    });

    const show = await hitl(['show', runId]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('Waiting for approval');
    expect(show.stdout).toContain('process_refund');
    // By the run's ids, which decisions take (the model called it `c`).
    expect(show.stdout).toContain('assistant → cancel_order({"orderId":"1235"}) [call-3]');

    const across = JSON.parse((await hitl(['--json', 'pending', '--agent', 'clidemo', '--tool', 'process_refund'])).stdout);
    expect(across.filter((w: { workflowId: string }) => w.workflowId === runId).map((w: { id: string }) => w.id)).toEqual(['call-4']);
    // Across runs, the table says who may decide each call.
    const acrossTable = await hitl(['pending', '--agent', 'clidemo', '--tool', 'process_refund']);
    expect(acrossTable.stdout).toMatch(/│ approvers +│ who decides/);
    expect(acrossTable.stdout).toMatch(new RegExp(`│ ${runId}\\s+│ clidemo\\s+│ call-4\\s+│ process_refund\\s+│.*│ finance\\s+│`));
    const table = await hitl(['pending', runId]);
    expect(table.stdout).toMatch(/│ call-1\s+│ write_file/);
    // A call with no list of approvers says who may decide it: anyone (a blank cell read as no one).
    expect(table.stdout).toMatch(/│ call-1\s+│ write_file\s+│.*│ anyone\s+│/);
    expect(table.stdout).toMatch(/│ call-4\s+│ process_refund\s+│.*│ finance\s+│/);
  });

  it('approve, reject, edit (--args-file) and respond; a refusal prints the reason, no stack trace, and exits non-zero', async () => {
    const refused = await hitl(['approve', runId, 'call-4', '--as', 'bob']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toBe('Refused (approver_not_allowed): bob may not decide process_refund (call-4); approvers: finance.\n');
    // A call the run does not have is not found (exit 4), as over HTTP (404).
    const refusedJson = await hitl(['--json', 'approve', runId, 'zzz']);
    expect(refusedJson.code).toBe(4);
    expect(JSON.parse(refusedJson.stderr)).toEqual({
      error: { code: 'unknown_call', message: 'No pending call has id zzz. Pending: call-1, call-2, call-3, call-4.' },
    });

    expect(await hitl(['approve', runId, 'call-1', '--as', 'alice', '--message', 'fine'])).toMatchObject({
      code: 0,
      stdout: '✓ approve write_file (call-1) by alice\n',
    });
    // A blank --as is refused before anything is sent (the client would drop it and decide in no one's name):
    // call-3 is still pending for the reject below, and the audit log holds no approval of it.
    for (const blank of await Promise.all(['', '  '].map((as) => hitl(['approve', runId, 'call-3', '--as', as]))))
      expect(blank).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('is invalid. expected a name, not a blank one') });
    // The usage error quotes what was given with its escapes shown, never sent to the terminal.
    const escaping = await hitl(['approve', runId, 'call-3', '--as', '\u001b]0;owned\u0007\u001b[31mred\u202e']);
    expect(escaping).toMatchObject({ code: 2, stderr: expect.stringContaining("argument '\\u001b]0;owned\\u0007\\u001b[31mred\\u202e'") });
    expect(escaping.stderr).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(await hitl(['reject', runId, 'call-3', '--message', 'keep the order'])).toMatchObject({
      code: 0,
      stdout: '✓ reject cancel_order (call-3)\n',
    });
    // A file that cannot be read or holds no JSON object is the usage error a bad --args is, naming the file;
    // nothing is sent, so call-2 waits for the edit below.
    const notJson = path.join(h.dataDir, 'passwd');
    writeFileSync(notJson, 'root:x:0:0:root:/root:/bin/bash\n');
    const array = path.join(h.dataDir, 'array.json');
    writeFileSync(array, '[1,2]');
    const badFiles = [notJson, array, h.dataDir];
    for (const [i, bad] of (await Promise.all(badFiles.map((f) => hitl(['edit', runId, 'call-2', '--args-file', f])))).entries()) {
      expect(bad).toMatchObject({ code: 2, stdout: '' });
      expect(bad.stderr).toContain(`error: option '--args-file <file>' argument '${badFiles[i]}' is invalid. `);
      expect(bad.stderr).not.toMatch(/^\s+at /m);
    }
    const argsFile = path.join(h.dataDir, 'args.json');
    writeFileSync(argsFile, JSON.stringify({ path: 'b.txt', content: 'from a file' }));
    expect(await hitl(['edit', runId, 'call-2', '--args-file', argsFile])).toMatchObject({
      code: 0,
      stdout: '✓ edit write_file (call-2)\n',
    });
    expect(
      await hitl(['respond', runId, 'call-4', '--as', 'fay', '--group', 'finance', '--message', 'Refunds go through the bank this week.']),
    ).toMatchObject({ code: 0 });

    await waitFor(async () => JSON.parse((await hitl(['--json', 'show', runId])).stdout).status === 'Completed', 120_000);
    expect(readFileSync(path.join(h.dataDir, 'workspace', 'b.txt'), 'utf8')).toBe('from a file');
    const state = JSON.parse((await hitl(['--json', 'show', runId])).stdout);
    expect(state.decisions.map((d: { id: string; type: string; approver?: string }) => [d.id, d.type, d.approver ?? null])).toEqual([
      ['call-1', 'approve', 'alice'],
      ['call-3', 'reject', null],
      ['call-2', 'edit', null],
      ['call-4', 'respond', 'fay'],
    ]);
  });

  it('says that an approved call whose tool looks at the world first runs only if that is still as shown', async () => {
    const id = await startRun('cli refund of 20000', 1);
    expect(await hitl(['approve', id, 'call-1', '--as', 'fay', '--group', 'finance'])).toMatchObject({
      code: 0,
      stdout:
        '✓ approve process_refund (call-1) by fay: it runs if what it depends on is still as shown; otherwise it waits again (`hitl pending`)\n',
    });
    await waitFor(async () => JSON.parse((await hitl(['--json', 'show', id])).stdout).status === 'Completed', 60_000);
  });

  it('watch replays a finished run from its stream, one line per event', async () => {
    const watched = await hitl(['watch', runId]);
    expect(watched.code).toBe(0);
    const lines = watched.stdout.trim().split('\n');
    expect(lines.slice(0, 3)).toEqual(['status Running', 'step 1', 'model → write_file({"path":"a.txt","content":"a"}) [call-1]']);
    expect(lines).toContain('waiting for approval: process_refund [call-4] (approve, edit, reject, respond, ignore)');
    expect(lines).toContain('decided: approve write_file [call-1] by alice via update');
    expect(lines).toContain('tool [call-4]: Refunds go through the bank this week.');
    // The last step's text came as tokens: printed once, then the end.
    expect(lines.slice(-3)).toEqual(['step 2', 'model: batch handled', 'Completed: batch handled']);

    const json = await hitl(['--json', 'watch', runId, '--from', '3']);
    const items = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(items[0]).toMatchObject({ offset: 3, topic: 'events' });
    expect(items.map((i) => i.offset)).toEqual(items.map((_, i) => i + 3));
    expect(items.at(-1)).toMatchObject({ topic: 'events', event: { type: 'run_finished', output: 'batch handled' } });
    expect(await hitl(['watch', runId, '--from', 'soon'])).toMatchObject({ code: 2 });
    // The run has ended: refused without the promise of an item to come.
    expect(await hitl(['watch', runId, '--from', '100000'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('has ended and its stream has no offset 100000'),
    });
  });

  it('cancel ends a waiting run Canceled; a second cancel is refused as closed', async () => {
    const id = await startRun('cli refund to cancel', 1);
    const cancelled = await hitl(['cancel', id]);
    expect(cancelled).toMatchObject({ code: 0, stdout: `Cancelling ${id}: it ends Canceled once what it runs has stopped.\n` });
    await waitFor(async () => JSON.parse((await hitl(['--json', 'show', id])).stdout).status === 'Canceled', 60_000);
    expect(await hitl(['cancel', id])).toMatchObject({ code: 3, stderr: expect.stringContaining('has already closed (cancelled)') });
    expect(await hitl(['cancel', 'no-such-run'])).toMatchObject({ code: 4 });
  });

  it('watch says how a run that failed at its start ended, rather than nothing', async () => {
    // Started around the CLI's checks: a demo run may not approve on timeout, so it fails in its first task.
    const failed = await h.start({ agent: 'demo', prompt: 'a cli loosened start', approval: { onTimeout: 'approve' } });
    await failed.result().catch(() => undefined);
    const watched = await hitl(['watch', failed.workflowId]);
    expect(watched.stdout).toMatch(/^Failed: [^]*\n {2}- onTimeout: a run may not approve calls nobody decided\n$/);
    const json = await hitl(['--json', 'watch', failed.workflowId]);
    expect(JSON.parse(json.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      topic: 'events',
      event: { type: 'run_failed', status: 'Failed' },
    });
  });

  it('show gives a run that refused its start input the agent and prompt it was started with, as safe text', async () => {
    // Started around the CLI's checks, with a key the input does not take: the run refuses its input unread.
    const extra = await h.start({
      agent: 'demo',
      prompt: 'cli extra key \u001b[2K\rINNOCENT',
      extraKey: 1,
    } as unknown as AgentWorkflowInput);
    // Only strings are taken from such an input, cut to what a run takes; the rest stays blank.
    const odd = await h.start({ agent: 'x'.repeat(300), prompt: { text: 'not a string' }, extraKey: 1 } as unknown as AgentWorkflowInput);
    for (const run of [extra, odd]) await expect(run.result()).rejects.toThrow();

    const show = await hitl(['show', extra.workflowId]);
    expect(show.stdout).toContain(`${extra.workflowId}  demo  Failed  step 0\nPrompt: cli extra key \\u001b[2K\\rINNOCENT\n`);
    expect(show.stdout).not.toMatch(/[\u001b\r]/);
    expect(JSON.parse((await hitl(['--json', 'show', extra.workflowId])).stdout)).toMatchObject({
      agent: 'demo',
      prompt: 'cli extra key \u001b[2K\rINNOCENT',
      error: expect.stringContaining('unknown key "extraKey"'),
    });
    expect((await hitl(['show', odd.workflowId])).stdout).toContain(`${odd.workflowId}  ${'x'.repeat(127)}…  Failed  step 0\nPrompt: \n`);
  });

  it("watch prints the model's text as it is written, before the step ends", async () => {
    const handle = await h.start({ agent: 'clidemo', prompt: 'a cli long answer' });
    let runningWhenPrinted: Promise<boolean> | undefined;
    let approved: Promise<unknown> | undefined;
    const watched = await hitl(['watch', handle.workflowId], {
      onStdout: (soFar) => {
        // Watching: let the run go on to the step whose text streams.
        if (!approved && soFar.includes('waiting for approval')) approved = hitl(['approve', handle.workflowId, 'call-1']);
        if (!runningWhenPrinted && soFar.includes(LONG_ANSWER.slice(0, 20))) runningWhenPrinted = modelCallRunning(handle);
      },
    });
    expect(await approved).toMatchObject({ code: 0 });
    expect(watched.code).toBe(0);
    expect(await runningWhenPrinted).toBe(true);
    expect(watched.stdout).toContain(`model: ${LONG_ANSWER}\n`);
    expect(watched.stdout.trim().split('\n').at(-1)).toBe(`Completed: ${LONG_ANSWER}`);
  });

  it('review walks each pending call, driven through stdin (approve, edit by typed JSON, reject, edit in $EDITOR)', async () => {
    const reviewId = await startRun('cli review please', 4);
    const editor = path.join(h.dataDir, 'editor.sh');
    // The second edit goes through $EDITOR: a script that rewrites the file it is given.
    writeFileSync(editor, `#!/bin/sh\nsed -i 's/"four"/"four, edited"/' "$1"\n`, { mode: 0o755 });
    const first = await hitl(['review', reviewId, '--as', 'rex'], {
      input: ['a', 'e', '{"path":"r2.txt","content":"typed"}', 'r', 'not this one'].join('\n') + '\n',
    });
    // Its input ends before the fourth call: said, and not a success.
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('The input ended: 1 call not reviewed, still waiting.');
    expect(first.stdout).toContain('[1/4] write_file');
    expect(first.stdout).toContain('"content": "one"');
    expect(first.stdout).toContain('Decision (a=approve, e=edit, r=reject, p=respond, s=skip)');
    expect(first.stdout.match(/✓ /g)).toHaveLength(3);

    const second = await hitl(['review', reviewId], { input: 'x\ne\n', env: { EDITOR: editor } });
    expect(second.stdout).toContain('Please answer one of');
    expect(second.stdout).toContain('✓ edit');
    await waitFor(async () => JSON.parse((await hitl(['--json', 'show', reviewId])).stdout).status === 'Completed', 120_000);
    const workspace = (f: string) => readFileSync(path.join(h.dataDir, 'workspace', f), 'utf8');
    expect(workspace('r1.txt')).toBe('one');
    expect(workspace('r2.txt')).toBe('typed');
    expect(workspace('r4.txt')).toBe('four, edited');
    const state = JSON.parse((await hitl(['--json', 'show', reviewId])).stdout);
    expect(state.decisions.map((d: { id: string; type: string; message?: string }) => [d.id, d.type])).toEqual([
      ['call-1', 'approve'],
      ['call-2', 'edit'],
      ['call-3', 'reject'],
      ['call-4', 'edit'],
    ]);
    expect(state.messages.find((m: { tool_call_id?: string }) => m.tool_call_id === 'r3').content).toBe(
      'Rejected by a human reviewer; cancel_order did not run. Reason: not this one',
    );
  });

  it('review exits 3 when it leaves a call refused, and says so', async () => {
    const id = await startRun('cli batch of calls, reviewed by someone outside finance', 4);
    // Three skipped; the refund of 20,000 is finance's, so mallory's approval is refused, and then skipped.
    const reviewed = await hitl(['review', id, '--as', 'mallory'], { input: 's\ns\ns\na\ns\n' });
    expect(reviewed.code).toBe(3);
    expect(reviewed.stdout).toContain('Refused (approver_not_allowed)');
    expect(reviewed.stdout).toContain('1 call left as refused: still waiting.');
    expect(JSON.parse((await hitl(['--json', 'pending', id])).stdout)).toHaveLength(4);
    await h.temporal.client.workflow.getHandle(id).terminate();
  });

  it('review shows a call whole where lists show a preview, and approves what it showed', async () => {
    const id = await startRun('cli big review', 1);
    const listed = await hitl(['pending', id]);
    // --json holds the same preview: the list says where the arguments are whole.
    expect(listed.stdout).toContain('more characters; hitl review shows them]');
    expect(JSON.parse((await hitl(['--json', 'pending', id])).stdout)[0].argsTruncated).toBe(true);
    const review = await hitl(['review', id, '--as', 'rex'], { input: 'a\n' });
    expect(review.code).toBe(0);
    expect(review.stdout).toContain(`"content": "${BIG_CONTENT}"`);
    expect(review.stdout).not.toContain('"preview"');
    expect(review.stdout).toContain('✓ approve');
    await waitFor(async () => JSON.parse((await hitl(['--json', 'show', id])).stdout).status === 'Completed', 120_000);
    expect(readFileSync(path.join(h.dataDir, 'workspace', 'big-review.txt'), 'utf8')).toBe(BIG_CONTENT);
  });

  it('show, runs and review print control characters from outside as visible escapes, --json as it was', async () => {
    const prompt = 'cli hostile \u001b[2K\rINNOCENT';
    const id = await startRun(prompt, 1);
    const show = await hitl(['show', id]);
    expect(show.stdout).toContain('Prompt: cli hostile \\u001b[2K\\rINNOCENT\n');
    const review = await hitl(['review', id], { input: 's\n' });
    expect(review.stdout).toContain('"content": "x\\u009b\\u202eINNOCENT"');
    let runs = '';
    await waitFor(async () => (runs = (await hitl(['runs', '--waiting', '--agent', 'clidemo'])).stdout).includes(id), 120_000);
    expect(runs).toContain('\\u001b[2K\\rINNOCENT');
    for (const out of [show.stdout, review.stdout, runs]) expect(out).not.toMatch(/[\u001b\r\u009b\u202e]/);
    expect(JSON.parse((await hitl(['--json', 'show', id])).stdout).prompt).toBe(prompt);
  });

  it('model-server serves a script standalone', async () => {
    const script = path.join(h.dataDir, 'script.json');
    writeFileSync(script, JSON.stringify({ conversations: [], default: { content: 'hello from the script' } }));
    const child = spawn(process.execPath, [path.resolve('bin/hitl.js'), 'model-server', '--script', script, '--port', '0']);
    try {
      const baseURL = await new Promise<string>((resolve) =>
        child.stdout.on('data', (d) => /on (\S+)/.test(String(d)) && resolve(/on (\S+)/.exec(String(d))![1]!)),
      );
      const models: any = await (await fetch(`${baseURL}/models`, { headers: { authorization: 'Bearer x' } })).json();
      expect(models.data.length).toBeGreaterThan(0);
      const completion: any = await (
        await fetch(`${baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
        })
      ).json();
      expect(completion.choices[0].message.content).toBe('hello from the script');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('refuses a blank identity in every option that names one, before connecting', async () => {
    const blanks = [
      { option: '--as <approver>', args: ['review', 'run', '--as', ''] },
      { option: '--group <group>', args: ['review', 'run', '--as', 'rex', '--group', ' '] },
      { option: '--requested-by <who>', args: ['start', '--agent', 'clidemo', '--requested-by', '', 'hello'] },
      { option: '--from <who>', args: ['say', 'run', 'hello', '--from', ' '] },
      { option: '--as <approver>', args: ['sign', '--as', ''] },
      { option: '--group <group>', args: ['sign', '--as', 'alice', '--group', ''] },
      { option: '--as <who>', args: ['sign-request', '--as', '\t'] },
    ];
    // An unreachable Temporal: a command that got past its options would fail to connect, not exit 2.
    const env = { TEMPORAL_ADDRESS: '127.0.0.1:1', HITL_CONNECT_TIMEOUT_MS: '1000' };
    const results = await Promise.all(blanks.map(({ args }) => hitl(args, { env })));
    for (const [i, { option, args }] of blanks.entries()) {
      expect(results[i], args.join(' ')).toMatchObject({ code: 2, stdout: '' });
      expect(results[i]!.stderr, args.join(' ')).toMatch(
        new RegExp(`^error: option '${option}' argument '\\s*' is invalid\\. expected a name, not a blank one\n`),
      );
    }
  });

  it('a reader that closes stdout early (| head) ends any command quietly, with 0; another failed write is an error', async () => {
    // Closed before the first write: a command that prints at once, one that reads a run, one that streams.
    const closed = await Promise.all(
      [['keygen'], ['show', runId], ['--json', 'watch', runId, '--from', '3']].map((args) => hitl(args, { closeStdout: 'at-once' })),
    );
    for (const result of closed) expect(result).toMatchObject({ code: 0, stderr: '' });

    // Closed after the first chunk of a live watch: the approval makes the run write more, after the pipe closed.
    const id = await startRun('cli refund through a pipe', 1);
    let approved: Promise<unknown> | undefined;
    const watched = await hitl(['watch', id], {
      closeStdout: 'after-first-chunk',
      onStdout: () => (approved ??= hitl(['approve', id, 'call-1', '--as', 'fay', '--group', 'finance'])),
    });
    expect(await approved).toMatchObject({ code: 0 });
    expect(watched).toMatchObject({ code: 0, stderr: '' });

    const full = openSync('/dev/full', 'w');
    try {
      expect(await hitl(['keygen'], { stdoutFd: full })).toMatchObject({
        code: 1,
        stderr: 'Error: ENOSPC: no space left on device, write\n',
      });
    } finally {
      closeSync(full);
    }
  });

  it('exits 2 on usage errors, for an agent no worker serves, and 4 for an unknown run', async () => {
    expect((await hitl(['approve'])).code).toBe(2);
    // With --json, a usage error is the JSON any other error is, without the help, also with --json after the command.
    for (const [args, message] of [
      [['--json', 'approve'], "missing required argument 'workflow-id'"],
      [['approve', 'x', 'y', '--bogus', '--json'], "unknown option '--bogus'"],
      [
        ['pending', '--wait', 'soon', '--json'],
        "option '--wait [seconds]' argument 'soon' is invalid. expected a number of seconds, in digits",
      ],
    ] as const) {
      const usage = await hitl([...args]);
      expect([usage.code, usage.stdout, JSON.parse(usage.stderr)], args.join(' ')).toEqual([2, '', { error: { code: 'usage', message } }]);
    }
    // This environment lists no agent "nope", so the workers' first task on the run decides: they serve no such agent.
    const typo = await hitl(['start', '--agent', 'nope', 'hello']);
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr).toMatch(/^Error: Unknown agent "nope"\. Known agents: .*clidemo/);
    expect(JSON.parse((await hitl(['--json', 'start', '--agent', 'nope', 'hello'])).stderr)).toMatchObject({
      error: { code: 'unknown_agent', message: expect.stringContaining('clidemo') },
    });
    expect((await hitl(['edit', 'x', 'y', '--args', '[1]'])).code).toBe(2);
    const outOfRange = await hitl(['start', '--agent', 'clidemo', '--continue-as-new', '{"beforeWaitEvents": 10}', 'hello']);
    expect(outOfRange).toMatchObject({ code: 2, stdout: '' });
    expect(outOfRange.stderr).toContain('continueAsNew.beforeWaitEvents');
    const terms = await hitl(['--json', 'start', '--agent', 'clidemo', '--continue-as-new', '{"beforeWaitEvents": 60}', 'hello']);
    expect(terms.code).toBe(0);
    const { input } = await startOf(h.temporal.client.workflow.getHandle(JSON.parse(terms.stdout).workflowId));
    expect(input).toMatchObject({ agent: 'clidemo', continueAsNew: { beforeWaitEvents: 60 } });
    const missing = await hitl(['show', 'no-such-run']);
    expect(missing).toMatchObject({ code: 4, stderr: 'Error: No run with workflow id no-such-run.\n' });
    // Numbers in digits: parseInt read `1e9` as 1, a run of one step.
    for (const [option, value] of [
      ['--max-steps', '1e9'],
      ['--max-steps', '20abc'],
    ]) {
      const refused = await hitl(['start', '--agent', 'clidemo', option!, value!, 'never started']);
      expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('expected a whole number, in digits')]);
    }
    expect(await hitl(['pending', '--wait', 'soon'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('expected a number of seconds'),
    });
    // A blank call id names no call: refused here, not sent to the run to be refused there as malformed (exit 3).
    expect(await hitl(['approve', 'any-run', ''])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('expected an id, not a blank one'),
    });
  });

  it('pending --wait across runs waits for something to wait, as long as asked', async () => {
    const started = Date.now();
    // Longer than the CLI takes to start and list once, so a --wait ignored would end well before it.
    const none = await hitl(['pending', '--agent', 'clidemo', '--tool', 'no_such_tool', '--wait', '8']);
    expect(none).toMatchObject({ code: 0, stdout: 'Nothing is waiting.\n' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(8000);
  });

  it('refuses a run id it cannot use, typed and before anything is sent: blank, too long, hiding, or a child’s or the store’s', async () => {
    const ids: [string, RegExp][] = [
      ['', /it is blank/],
      ['x'.repeat(901), /longer than 900 bytes/],
      ['run\u202eexe.txt', /hides or rewrites text \(run\\u202eexe\.txt\)/],
      ['hitl-store/memories/victim', /holds a '\/'/],
      [`${runId}/call-9`, /holds a '\/'/],
    ];
    for (const [id, why] of ids) {
      const refused = await hitl(['--json', 'start', '--agent', 'clidemo', '--id', id, 'never started']);
      expect(refused.code, id.slice(0, 40)).toBe(2);
      expect(JSON.parse(refused.stderr)).toMatchObject({ error: { code: 'run_id_refused', message: expect.stringMatching(why) } });
    }
    // An id an open run holds: said as such, not as Temporal's bare "already started".
    const open = await startRun('cli batch of calls, held open', 4);
    const taken = await hitl(['start', '--agent', 'clidemo', '--id', open, 'a second run at the same id']);
    expect(taken).toMatchObject({ code: 2, stdout: '' });
    expect(taken.stderr).toContain(`The run id ${JSON.stringify(open)} cannot be used: a run with this id is already open.`);
    await h.temporal.client.workflow.getHandle(open).terminate();
  });
});
