/**
 * Sensitive arguments never sit in plain text in history: with keys configured, every payload is AES-256-GCM
 * encrypted; the client and the codec endpoint decode them, and keys rotate by id.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import proto from '@temporalio/proto';
import { Client } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AesGcmPayloadCodec, KEY_ID_METADATA } from '../src/codec/aes-gcm-codec.js';
import type { KeyRing } from '../src/codec/encryption-keys.js';
import { HitlClient } from '../src/client/hitl-client.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { waitFor } from './helpers/history.js';
import { readTokens, streamHistory, textOf } from './helpers/stream.js';
import type { Listening } from '../src/api/listen.js';
import { startTestApi } from './helpers/api.js';
import { runHitl } from './helpers/cli.js';
import { defineAgent } from '../src/agents/define-agent.js';
import { demoAgent } from '../src/agents/demo.js';

const k1 = randomBytes(32);
const k2 = randomBytes(32);
const ringA: KeyRing = { currentId: 'k1', keys: new Map([['k1', k1]]) };
const ringB: KeyRing = {
  currentId: 'k2',
  keys: new Map([
    ['k1', k1],
    ['k2', k2],
  ]),
};
const converter = (ring: KeyRing): DataConverter => ({ payloadCodecs: [new AesGcmPayloadCodec(ring)] });
const TOKEN = 'codec-token-0123456789';

/** The settings a Python client reads (hitl_codec.py), as the workers take them. */
const keysEnv = (ring: KeyRing) => ({
  HITL_ENCRYPTION_KEYS: JSON.stringify(Object.fromEntries([...ring.keys].map(([id, key]) => [id, key.toString('base64')]))),
  HITL_ENCRYPTION_KEY_ID: ring.currentId,
});
let python: string | undefined;
const pythonPath = async () =>
  (python ??= (await promisify(execFile)('bash', ['scripts/python/venv.sh'], { timeout: 600_000 })).stdout.trim());
/** scripts/python/watch_run.py to the run's end, with `env` over a copy of this process's without any keys. */
async function watchInPython(workflowId: string, env: Record<string, string>) {
  const { HITL_ENCRYPTION_KEYS: _k, HITL_ENCRYPTION_KEYS_FILE: _f, HITL_ENCRYPTION_KEY_ID: _i, ...rest } = process.env;
  const args = ['scripts/python/watch_run.py', workflowId, '--address', h.temporal.address, '--namespace', h.temporal.namespace];
  return promisify(execFile)(await pythonPath(), args, { env: { ...rest, ...env }, timeout: 120_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: err.code ?? -1,
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? '',
    }),
  );
}
const SECRET_PROMPT = 'Refund order 1234 for Zelda Zebrafish';
const VAULT_ANSWER = 'The vault code is Xylophone Quasar 7.';

let h: Harness;
/** Before and after the key rotation. */
let hitlA: HitlClient;
let hitl: HitlClient;
let api: Listening;

beforeAll(async () => {
  h = await startHarness({
    dataConverter: converter(ringA),
    streaming: { batchIntervalMs: 100 },
    // Served by the workers only: a CLI here checks after the start that one serves it.
    agents: { 'sealed-only': defineAgent({ ...demoAgent, name: 'sealed-only' }) },
    script: {
      conversations: [
        { match: 'vault', replies: [{ content: VAULT_ANSWER, chunkSize: 5, chunkDelayMs: 30 }] },
        {
          match: 'Zelda Zebrafish',
          replies: [
            { toolCalls: [{ id: 'z1', name: 'process_refund', arguments: { orderId: '1234', amount: 43210.5 } }] },
            { content: 'Refunded Zelda.' },
          ],
        },
      ],
    },
  });
  const client = (ring: KeyRing) =>
    new Client({ connection: h.temporal.client.connection, namespace: h.temporal.namespace, dataConverter: converter(ring) });
  hitlA = new HitlClient(client(ringA), h.taskQueue);
  hitl = new HitlClient(client(ringB), h.taskQueue);
  api = await startTestApi(h, {
    hitl,
    tokens: { [TOKEN]: { approver: 'ops', groups: ['finance'] } },
    temporalUiUrl: 'http://localhost:8233',
    codec: new AesGcmPayloadCodec(ringB),
  });
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

describe('payload encryption', () => {
  it('keeps tool arguments and prompts out of raw history, while the client and the codec endpoint read them', async () => {
    const { workflowId: runId } = await hitlA.startRun({ agent: 'demo', prompt: SECRET_PROMPT });
    await waitFor(async () => (await hitlA.pending(runId)).length === 1);
    expect((await hitlA.pending(runId))[0]).toMatchObject({ toolName: 'process_refund', args: { orderId: '1234', amount: 43210.5 } });

    // Rotate: the new worker and clients encrypt with k2 and still read what k1 encrypted.
    await h.restartWorker({ dataConverter: converter(ringB) });
    await hitl.approve(runId, 'call-1', { approver: 'fin', groups: ['finance'] });
    expect(await hitl.result(runId)).toMatchObject({ status: 'Completed', output: 'Refunded Zelda.' });

    // Raw history, read by a client without the codec.
    const raw = JSON.stringify(await h.temporal.client.workflow.getHandle(runId).fetchHistory());
    for (const secret of ['Zelda', 'orderId', '43210.5', 'Refunded']) expect(raw).not.toContain(secret);
    const keyIds = new Set([...raw.matchAll(/"encryption-key-id":"([^"]+)"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString()));
    expect(keyIds).toEqual(new Set(['k1', 'k2']));

    // The codec endpoint decodes the workflow input for an authorised caller, and refuses anyone else.
    const history = await h.temporal.client.workflow.getHandle(runId).fetchHistory();
    const input = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    const body = JSON.stringify({
      payloads: [
        {
          metadata: Object.fromEntries(Object.entries(input.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
          data: Buffer.from(input.data!).toString('base64'),
        },
      ],
    });
    const denied = await fetch(`${api.url}/codec/decode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(denied.status).toBe(401);
    const decoded = await fetch(`${api.url}/codec/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, origin: 'http://localhost:8233' },
      body,
    });
    expect(decoded.status).toBe(200);
    expect(decoded.headers.get('access-control-allow-origin')).toBe('http://localhost:8233');
    const [payload] = ((await decoded.json()) as { payloads: { metadata: Record<string, string>; data: string }[] }).payloads;
    expect(Buffer.from(payload!.metadata.encoding!, 'base64').toString()).toBe('json/plain');
    expect(JSON.parse(Buffer.from(payload!.data, 'base64').toString())).toMatchObject({ agent: 'demo', prompt: SECRET_PROMPT });

    // Without a token a body is not read at all, however large; with one, a payload sealed otherwise, or a body naming
    // a key twice, is the caller's mistake (400), as in the rest of the API.
    const codec = (text: string, token: string | null = TOKEN) =>
      fetch(`${api.url}/codec/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: text,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { code: string; message: string } } }));
    expect((await codec(JSON.stringify({ payloads: [{ data: 'x'.repeat(100_000) }] }), null)).status).toBe(401);
    expect((await codec(JSON.stringify({ payloads: [{ data: 'x'.repeat(100_000) }] }))).status).toBe(413);
    const sealed = JSON.parse(body).payloads[0];
    const tampered = {
      ...sealed,
      data: Buffer.from(Buffer.from(sealed.data, 'base64').map((b, i) => (i === 20 ? b ^ 1 : b))).toString('base64'),
    };
    expect(await codec(JSON.stringify({ payloads: [tampered] }))).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringContaining('could not be decoded') } },
    });
    expect(await codec('{"payloads": [], "payloads": [{"data": ""}]}')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringContaining('names the key "payloads" twice') } },
    });
    // `temporal workflow query` with no --input asks to encode {}: nothing, answered as nothing.
    expect(await codec('{}')).toEqual({ status: 200, body: { payloads: [] } });
    expect(await codec('{"payloads": null}')).toEqual({ status: 200, body: { payloads: [] } });

    // Anonymous calls, as the dev server's UI makes them: taken without a token, never with one that is not valid.
    const anonymousApi = await startTestApi(h, {
      hitl,
      tokens: { [TOKEN]: { approver: 'ops', groups: [] } },
      codec: new AesGcmPayloadCodec(ringB),
      codecAllowAnonymous: true,
    });
    try {
      const call = (token?: string) =>
        fetch(`${anonymousApi.url}/codec/decode`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
          body,
        }).then((r) => r.status);
      expect([await call(), await call(TOKEN), await call('not-a-token-of-ours')]).toEqual([200, 200, 401]);
      // A caller without a token has its body read as strictly as one with: what is not JSON, is labelled as something
      // else, or names a key twice, is refused for what it is (it was zod's bare words, and a repeated key was taken).
      const anonymous = (text: string, type = 'application/json') =>
        fetch(`${anonymousApi.url}/codec/decode`, { method: 'POST', headers: { 'content-type': type }, body: text }).then(async (r) => [
          r.status,
          ((await r.json()) as { error?: { code: string; message: string } }).error,
        ]);
      expect(await anonymous('garbage')).toEqual([400, { code: 'invalid_request', message: 'The body is not valid JSON.' }]);
      expect(await anonymous(body, 'application/xml')).toEqual([
        415,
        { code: 'unsupported_media_type', message: 'The codec takes JSON, as the Temporal UI sends; not application/xml.' },
      ]);
      expect(await anonymous('{"payloads": [], "payloads": []}')).toEqual([400, expect.objectContaining({ code: 'invalid_request' })]);
      expect(await anonymous('[1]')).toEqual([
        400,
        { code: 'invalid_request', message: expect.stringMatching(/^The body is not \{"payloads": \[\{"metadata"/) },
      ]);
    } finally {
      await anonymousApi.close();
    }
  });

  it('encrypts the run stream too: its publishes and polls carry only ciphertext in history', async () => {
    // Writes with k1 and reads both keys: whether or not the worker has rotated yet, each side reads the other.
    const bothKeys: KeyRing = { currentId: 'k1', keys: ringB.keys };
    const withKeys = new Client({
      connection: h.temporal.client.connection,
      namespace: h.temporal.namespace,
      dataConverter: converter(bothKeys),
    });
    const handle = await withKeys.workflow.start('agentWorkflow', {
      args: [{ agent: 'demo', prompt: 'What is the vault code?' }],
      taskQueue: h.taskQueue,
      workflowId: `stream-${randomBytes(4).toString('hex')}`,
    });
    const tokens = await readTokens(withKeys, handle.workflowId);
    expect(textOf(tokens, 1, tokens[0]!.attempt)).toBe(VAULT_ANSWER);

    const rawHandle = h.temporal.client.workflow.getHandle(handle.workflowId);
    const { publishes, polls } = await streamHistory(rawHandle);
    const pollResults = ((await rawHandle.fetchHistory()).events ?? []).flatMap(
      (e) => e.workflowExecutionUpdateCompletedEventAttributes?.outcome?.success?.payloads ?? [],
    );
    expect(publishes.length).toBeGreaterThan(0);
    expect(polls.length).toBeGreaterThan(0);
    expect(pollResults.length).toBeGreaterThan(0);
    const encodings = [
      ...publishes.map((e) => e.workflowExecutionSignaledEventAttributes!.input!.payloads![0]!),
      ...polls.map((e) => e.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest!.input!.args!.payloads![0]!),
      ...pollResults,
    ].map((p) => Buffer.from(p.metadata!.encoding!).toString());
    expect(new Set(encodings)).toEqual(new Set(['binary/encrypted']));
    const raw = JSON.stringify(await h.temporal.client.workflow.getHandle(handle.workflowId).fetchHistory());
    for (const secret of ['Xylophone', 'vault']) expect(raw).not.toContain(secret);

    // From Python (scripts/python/hitl_codec.py), with the workers' settings: the same items the TypeScript client
    // reads. Without the keys, it says which setting it lacks, with no traceback.
    const fromTs: unknown[] = [];
    for await (const item of new HitlClient(withKeys, h.taskQueue).subscribe(handle.workflowId)) fromTs.push(item);
    const watched = await watchInPython(handle.workflowId, keysEnv(bothKeys));
    expect(watched.code, watched.stderr).toBe(0);
    expect(
      watched.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(fromTs);
    const keyless = await watchInPython(handle.workflowId, {});
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain('set HITL_ENCRYPTION_KEYS');
    expect(keyless.stderr).not.toContain('Traceback');
  });

  it("Python's codec seals what the workers open, and the other way round", async () => {
    const codec = new AesGcmPayloadCodec(ringB);
    const [sealedHere] = await codec.encode([
      { metadata: { encoding: new TextEncoder().encode('json/plain') }, data: new TextEncoder().encode('"from node"') },
    ]);
    const script = [
      'import asyncio, base64, sys',
      'sys.path.insert(0, "scripts/python")',
      'from hitl_codec import KeysError, codec_from_env',
      'from temporalio.api.common.v1 import Payload',
      'codec = codec_from_env()',
      'async def main():',
      '    [opened] = await codec.decode([Payload.FromString(base64.b64decode(sys.argv[1]))])',
      '    [sealed] = await codec.encode([Payload(metadata={"encoding": b"json/plain"}, data=b\'"from python"\')])',
      '    print(opened.data.decode())',
      '    print(base64.b64encode(sealed.SerializeToString()).decode())',
      '    try:',
      '        await codec_from_env({"HITL_ENCRYPTION_KEYS": sys.argv[2]}).decode([Payload.FromString(base64.b64decode(sys.argv[1]))])',
      '    except KeysError as err:',
      '        print(err)',
      'asyncio.run(main())',
    ].join('\n');
    const wire = Buffer.from(proto.temporal.api.common.v1.Payload.encode(sealedHere!).finish()).toString('base64');
    // Another key under the id it was sealed with: both sides say so, in the same words.
    const { HITL_ENCRYPTION_KEYS: otherK2 } = keysEnv({ currentId: 'k2', keys: new Map([['k2', randomBytes(32)]]) });
    const { stdout } = await promisify(execFile)(await pythonPath(), ['-c', script, wire, otherK2], {
      env: { ...process.env, ...keysEnv(ringB) },
    });
    const [opened, sealedThere, wrongKey] = stdout.trim().split('\n');
    expect(opened).toBe('"from node"');
    const wrongHere = 'Cannot decrypt a payload: the key configured as "k2" does not open it';
    expect(wrongKey).toContain(wrongHere);
    const otherRing: KeyRing = { currentId: 'k2', keys: new Map([['k2', randomBytes(32)]]) };
    await expect(new AesGcmPayloadCodec(otherRing).decode([sealedHere!])).rejects.toThrow(wrongHere);
    const [back] = await codec.decode([proto.temporal.api.common.v1.Payload.decode(Buffer.from(sealedThere!, 'base64'))]);
    expect(new TextDecoder().decode(back!.data!)).toBe('"from python"');
    expect(new TextDecoder().decode(back!.metadata!.encoding!)).toBe('json/plain');
  });

  it('a client without the key still lists every run: an encrypted run is listed without its memo', async () => {
    // Writes with k1 and reads both keys, so it works whether or not the worker has rotated yet.
    const keyed = new HitlClient(
      new Client({
        connection: h.temporal.client.connection,
        namespace: h.temporal.namespace,
        dataConverter: converter({ currentId: 'k1', keys: ringB.keys }),
      }),
      h.taskQueue,
    );
    const { workflowId } = await keyed.startRun({ agent: 'demo', prompt: SECRET_PROMPT });
    await waitFor(async () => (await keyed.pending(workflowId)).length === 1);
    const plain = new HitlClient(h.temporal.client, h.taskQueue);
    // The SDK's own list throws on the first memo it cannot decode; ours must not.
    await expect(async () => {
      for await (const _ of h.temporal.client.workflow.list({ query: `WorkflowId = '${workflowId}'` }));
    }).rejects.toThrow('Unknown encoding: binary/encrypted');
    await waitFor(async () => (await plain.listRuns()).some((r) => r.workflowId === workflowId));
    const listed = (await plain.listRuns()).find((r) => r.workflowId === workflowId)!;
    expect(listed).toMatchObject({ status: 'AwaitingApproval', pendingTools: ['process_refund'] });
    expect(listed.prompt).toBeUndefined();
    // The client with the key reads the memo as before.
    expect((await keyed.listRuns()).find((r) => r.workflowId === workflowId)?.prompt).toBe(SECRET_PROMPT);
    // What waits across runs cannot be read without the key: hitl pending says which runs it leaves out, and why.
    await waitFor(async () => (await plain.waitingAcrossRuns()).unreadable.some((r) => r.workflowId === workflowId));
    // The list it could read is printed, and the exit says it is not all of it.
    const pending = await runHitl(h, ['pending']);
    expect(pending.code).toBe(1);
    expect(pending.stdout).not.toContain(workflowId);
    expect(pending.stderr).toMatch(/waiting run\(s\) could not be read here, so their calls are not listed: .*/);
    expect(pending.stderr).toContain(workflowId);
    expect(pending.stderr).toContain('set HITL_ENCRYPTION_KEYS');
    const asJson = await runHitl(h, ['--json', 'pending']);
    expect(asJson.code).toBe(1);
    expect(Array.isArray(JSON.parse(asJson.stdout))).toBe(true);
    const { error } = JSON.parse(asJson.stderr) as { error: { code: string; runs: { workflowId: string; reason: string }[] } };
    expect(error.code).toBe('unreadable_runs');
    expect(error.runs.find((r) => r.workflowId === workflowId)?.reason).toContain('set HITL_ENCRYPTION_KEYS');
    // Over HTTP, an API without the keys lists what it can read and counts what it left out, in a header (the body
    // stays the plain array), and its log names the run.
    const logged: string[] = [];
    const keyless = await startTestApi(h, {
      tokens: { [TOKEN]: { approver: 'ops', groups: ['finance'] } },
      log: (line) => logged.push(line),
    });
    try {
      const listed = await fetch(`${keyless.url}/api/approvals`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(listed.status).toBe(200);
      expect(Number(listed.headers.get('hitl-unreadable-runs'))).toBeGreaterThanOrEqual(1);
      const items = (await listed.json()) as { workflowId: string }[];
      expect(items.some((a) => a.workflowId === workflowId)).toBe(false);
      expect(logged.join('\n')).toContain(JSON.stringify(workflowId));
      // A run it cannot read, or decide, is a setting to fix, said as that: not a fault of ours to try again.
      for (const [method, path] of [
        ['GET', `/api/runs/${workflowId}`],
        ['POST', `/api/runs/${workflowId}/decisions`],
      ] as const) {
        const refused = await fetch(`${keyless.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          ...(method === 'POST' && { body: JSON.stringify({ decisions: [{ id: 'call-1', type: 'reject', message: 'no' }] }) }),
        });
        const { error } = (await refused.json()) as { error: { code: string; message: string } };
        expect([refused.status, error.code], path).toEqual([500, 'undecodable_payload']);
        expect(error.message).toMatch(
          /^This run's payloads are encrypted, and this API holds no key for them\. The API and every worker need the same HITL_ENCRYPTION_KEYS/,
        );
      }
      expect((await keyed.pending(workflowId)).map((p) => p.id)).toEqual(['call-1']);
      // The keyed API reads it: no header, and the call is listed.
      await waitFor(async () => {
        const keyed = await fetch(`${api.url}/api/approvals`, { headers: { authorization: `Bearer ${TOKEN}` } });
        const all = (await keyed.json()) as { workflowId: string }[];
        return keyed.headers.get('hitl-unreadable-runs') === null && all.some((a) => a.workflowId === workflowId);
      });
    } finally {
      await keyless.close();
    }
    // With other keys under the run's key ids (the worker rewrites the memo with its own current key, k1 or k2), it
    // says that, not to set the keys.
    const otherKeys = keysEnv({ currentId: 'k1', keys: new Map(['k1', 'k2'].map((id) => [id, randomBytes(32)])) });
    const wrongKey = await runHitl(h, ['pending'], { env: otherKeys });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain(workflowId);
    expect(wrongKey.stderr).toMatch(/the key configured as "k[12]" does not open it/);
    expect(wrongKey.stderr).not.toContain('set HITL_ENCRYPTION_KEYS');
    await keyed.reject(workflowId, 'call-1', { approver: 'fin', groups: ['finance'], message: 'test done' });
  });

  it('hitl start without the keys prints the id of the run it started, and says which setting it lacks', async () => {
    const started = await runHitl(h, ['start', '--quiet', '--agent', 'sealed-only', 'open the vault']);
    expect(started.code, started.stderr).toBe(0);
    const workflowId = started.stdout.trim();
    expect(workflowId).toMatch(/^sealed-only-/);
    expect(started.stderr).toContain('HITL_ENCRYPTION_KEYS');
    expect(await hitl.temporal.workflow.getHandle(workflowId).result()).toMatchObject({ status: 'Completed' });
  });

  it('answers the Temporal UI preflight from its origin only', async () => {
    const fromUi = await fetch(`${api.url}/codec/decode`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:8233',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(fromUi.headers.get('access-control-allow-origin')).toBe('http://localhost:8233');
    const fromElsewhere = await fetch(`${api.url}/codec/decode`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a payload whose key is not configured, naming the key', async () => {
    const [sealed] = await new AesGcmPayloadCodec(ringB).encode([
      { metadata: { encoding: new TextEncoder().encode('json/plain') }, data: new TextEncoder().encode('1') },
    ]);
    expect(new TextDecoder().decode(sealed!.metadata![KEY_ID_METADATA]!)).toBe('k2');
    await expect(new AesGcmPayloadCodec(ringA).decode([sealed!])).rejects.toThrow('key "k2" is not configured');
  });

  it('refuses a decision sealed with a key the worker does not have, and the run goes on', async () => {
    const { workflowId } = await hitl.startRun({ agent: 'demo', prompt: SECRET_PROMPT });
    await waitFor(async () => (await hitl.pending(workflowId)).length === 1);
    // A ciphertext the worker cannot open: its codec used to throw, which failed every workflow task of the run.
    const [sealed] = await new AesGcmPayloadCodec({ currentId: 'k9', keys: new Map([['k9', randomBytes(32)]]) }).encode([
      { metadata: { encoding: new TextEncoder().encode('json/plain') }, data: new TextEncoder().encode('{"decisions":[]}') },
    ]);
    const forged = new Client({
      connection: h.temporal.client.connection,
      namespace: h.temporal.namespace,
      dataConverter: { payloadCodecs: [{ encode: async (ps) => ps.map(() => sealed!), decode: async (ps) => ps }] },
    });
    await forged.workflow.getHandle(workflowId).signal('decision', {});
    await waitFor(async () => (await hitl.getRun(workflowId)).decisions.length === 1);
    const [refused] = (await hitl.getRun(workflowId)).decisions;
    expect(refused).toMatchObject({ outcome: 'refused', refusal: { code: 'malformed', message: expect.stringContaining('key "k9"') } });
    expect(await hitl.diagnose(workflowId)).toBeUndefined();
    // An API that encrypts with a key id no worker holds yet (a rotation's new current key, sent out first): the
    // worker cannot read the query it sends, and the API says which setting to fix, not to try again.
    const ahead = { currentId: 'k9', keys: new Map([...ringB.keys, ['k9', randomBytes(32)]]) };
    const early = await startTestApi(h, {
      hitl: new HitlClient(
        new Client({ connection: h.temporal.client.connection, namespace: h.temporal.namespace, dataConverter: converter(ahead) }),
        h.taskQueue,
      ),
      tokens: { [TOKEN]: { approver: 'ops', groups: ['finance'] } },
    });
    try {
      const refused = await fetch(`${early.url}/api/runs/${workflowId}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect([refused.status, error.code]).toEqual([500, 'undecodable_payload']);
      expect(error.message).toMatch(/^A worker could not decrypt what this API sent: .*key "k9" is not configured/);
    } finally {
      await early.close();
    }
    await hitl.reject(workflowId, 'call-1', { approver: 'fin', groups: ['finance'], message: 'test done' });
    await waitFor(async () => (await hitl.getRun(workflowId)).status === 'Completed');
  });
});
