/** The ground everything else stands on: dev server, worker, activity, real `openai` client, scripted model. */
import path from 'node:path';
import OpenAI from 'openai';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../src/model-server/server.js';
import { connectTestTemporal, uniqueName, type TestTemporal } from './helpers/temporal.js';

let temporal: TestTemporal;
let model: ModelServer;

beforeAll(async () => {
  temporal = await connectTestTemporal();
  model = await startModelServer({
    script: { conversations: [{ match: 'ping', replies: [{ content: 'pong from the scripted model' }] }] },
  });
});
afterAll(async () => {
  await model?.close();
  await temporal?.close();
});

describe('smoke', () => {
  it('runs a workflow whose activity calls the scripted model through the real openai client', async () => {
    const taskQueue = uniqueName('smoke');
    const openai = new OpenAI({ baseURL: model.baseURL, apiKey: 'sk-test', maxRetries: 0 });
    const worker = await Worker.create({
      connection: temporal.nativeConnection,
      namespace: temporal.namespace,
      taskQueue,
      workflowsPath: path.resolve('test/fixtures/smoke-workflow.ts'),
      activities: {
        async askModel(prompt: string) {
          const completion = await openai.chat.completions.create({
            model: 'scripted-model',
            messages: [{ role: 'user', content: prompt }],
          });
          return completion.choices[0]!.message.content ?? '';
        },
      },
    });
    const result = await worker.runUntil(
      temporal.client.workflow.execute('smokeWorkflow', { args: ['ping?'], taskQueue, workflowId: uniqueName('smoke') }),
    );
    expect(result).toBe('pong from the scripted model');
    expect(model.completions().at(-1)?.messages).toEqual([{ role: 'user', content: 'ping?' }]);
  });

  it('answers 400 like the real API when a tool call has no tool message', async () => {
    const openai = new OpenAI({ baseURL: model.baseURL, apiKey: 'sk-test', maxRetries: 0 });
    const request = openai.chat.completions.create({
      model: 'scripted-model',
      messages: [
        { role: 'user', content: 'ping' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
        },
        { role: 'user', content: 'and?' },
      ],
    });
    await expect(request).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(request).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('The following tool_call_ids did not have response messages: call_a'),
    });
  });
});
