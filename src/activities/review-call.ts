/**
 * A reviewer's verdict on a gated call, before humans see it: a rule's (src/reviewers/rules.ts) or a model's,
 * through the real `openai` client with its own instructions and a structured answer. Anything but a valid verdict
 * fails the activity, and a failed review sends the call to humans.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { reviewRules, type ReviewedCall, type ReviewRule } from '../reviewers/rules.js';
import { REVIEW_VERDICTS, ReviewVerdict, type ReviewConfig } from '../schemas/review.js';
import type { ToolArgs } from '../schemas/tool-args.js';
import type { ActivityDeps } from './activity-deps.js';
import { toModelFailure } from './model-errors.js';
import { openAiClients } from './openai-clients.js';

export interface ReviewCallInput {
  agent: string;
  /** The model a model reviewer uses (its own, else the agent's). */
  model: string;
  reviewer: ReviewConfig;
  call: { id: string; toolName: string; args: ToolArgs; description: string };
  prompt: string;
  requestedBy?: string;
  /** The run's context: rules see it; a model reviewer never does (the model never sees context). */
  context?: Record<string, unknown>;
}

const ANSWER_FORMAT =
  'Answer with JSON only: {"verdict": "approve" | "reject" | "escalate", "reason": "..."}. Approve only what is ' +
  'clearly safe; reject what is clearly wrong (the reason is what the agent is told); escalate anything else to ' +
  'human approvers (the reason is what they read first).';

const VERDICT_SCHEMA = {
  type: 'object',
  properties: { verdict: { type: 'string', enum: [...REVIEW_VERDICTS] }, reason: { type: 'string' } },
  required: ['verdict', 'reason'],
  additionalProperties: false,
};

export function createReviewCall({ agents, model: config, reviewRules: rules = reviewRules }: ActivityDeps) {
  const clientFor = openAiClients(config.apiKey);

  async function byModel(input: ReviewCallInput, instructions: string): Promise<unknown> {
    const { call } = input;
    const lines = [
      'Review this tool call before it runs.',
      `Agent: ${input.agent}`,
      `Tool: ${call.toolName}`,
      `Arguments: ${JSON.stringify(call.args)}`,
      `What approvers would read: ${call.description}`,
      `The request that started the run: ${input.prompt}`,
      ...(input.requestedBy ? [`Requested by: ${input.requestedBy}`] : []),
    ];
    let content: string | null | undefined;
    try {
      const completion = await clientFor(agents[input.agent]?.baseURL ?? config.baseURL).chat.completions.create(
        {
          model: input.model,
          messages: [
            { role: 'system', content: `${instructions}\n\n${ANSWER_FORMAT}` },
            { role: 'user', content: lines.join('\n') },
          ],
          response_format: { type: 'json_schema', json_schema: { name: 'review_verdict', schema: VERDICT_SCHEMA, strict: true } },
        },
        { signal: Context.current().cancellationSignal },
      );
      content = completion.choices[0]?.message.content;
    } catch (err) {
      throw toModelFailure(err);
    }
    try {
      return JSON.parse(content ?? '');
    } catch {
      throw ApplicationFailure.nonRetryable(
        `The model reviewer did not answer with JSON: ${String(content).slice(0, 200)}`,
        'InvalidReviewVerdict',
      );
    }
  }

  async function byRule(input: ReviewCallInput, name: string, rule: ReviewRule | undefined): Promise<unknown> {
    if (!rule) {
      throw ApplicationFailure.nonRetryable(
        `No reviewer rule "${name}" on this worker (rules: ${Object.keys(rules).join(', ')}).`,
        'UnknownReviewRule',
      );
    }
    const call: ReviewedCall = {
      ...input.call,
      callId: input.call.id,
      agent: input.agent,
      context: input.context ?? {},
      ...(input.requestedBy && { requestedBy: input.requestedBy }),
      prompt: input.prompt,
    };
    return rule(call, input.reviewer.options);
  }

  return {
    async reviewCall(input: ReviewCallInput): Promise<ReviewVerdict> {
      const { reviewer } = input;
      const answer = reviewer.model
        ? await byModel(input, reviewer.model.instructions)
        : await byRule(input, reviewer.rule!, Object.hasOwn(rules, reviewer.rule!) ? rules[reviewer.rule!] : undefined);
      // A long reason is cut, not refused: what matters is the verdict.
      const reason = (answer as { reason?: unknown } | null)?.reason;
      const verdict = ReviewVerdict.safeParse(
        typeof reason === 'string' ? { ...(answer as object), reason: reason.slice(0, 2000) } : answer,
      );
      if (!verdict.success) {
        throw ApplicationFailure.nonRetryable(
          `The reviewer's answer is not a verdict:\n${z.prettifyError(verdict.error)}`,
          'InvalidReviewVerdict',
        );
      }
      return verdict.data;
    },
  };
}
