/**
 * The decision shapes of the frameworks people arrive with, and the one mapping from each to our `DecideInput`.
 * Pure: the planner normalizes every input with it before parsing (so the update, the signal and HTTP accept the
 * same shapes), and the HTTP API uses it to check a body before sending it.
 *
 * - Ours: `{decisions: [{id?, type, args?, name?, message?, …}], approver?, groups?}`.
 * - LangChain's HITL resume: the same `{decisions: [...]}`, where an edit carries `edited_action: {name, args}`;
 *   it becomes `{type: 'edit', name, args}`.
 * - LangGraph's HumanResponse `{type, args}`, alone or one per interrupt in a list: `accept` → approve (with an
 *   ActionRequest, bound to its tool and arguments: `toolName` and `argsHash`), `ignore` → ignore, `response` →
 *   respond with the text, `edit` → edit into the ActionRequest's `action` with its `args`.
 *
 * A decision token binds the normalized decision: sign what the shape becomes here (README, "Clients written for other frameworks").
 */
import { nonFiniteNumberPath } from '../bounds/non-finite-numbers.js';
import { z } from 'zod';
import { builtOnce } from '../schemas/built-once.js';
import { argsHash } from '../policy/args-hash.js';
import { DecideInput, Decision } from '../schemas/decision.js';
import { ToolArgs } from '../schemas/tool-args.js';

/** What a refusal of a shape that matches none of them says. */
export const ACCEPTED_SHAPES =
  'Accepted shapes: {"decisions": [{"type": "approve|edit|reject|respond|ignore", …}]} (ours, and LangChain\'s resume ' +
  'with "edited_action": {"name", "args"}), or LangGraph\'s HumanResponse {"type": "accept|ignore|response|edit", ' +
  '"args": null | "text" | {"action", "args"}}, alone or in a list (one per pending call, in order).';

/** LangChain's edit: the whole new action. */
export const EditedAction = builtOnce('contract/seed-decisions.EditedAction', () =>
  z.strictObject({ name: z.string().min(1).max(128), args: ToolArgs }),
);

/** LangGraph's ActionRequest: a tool and its arguments. */
export const ActionRequest = builtOnce('contract/seed-decisions.ActionRequest', () =>
  z.strictObject({ action: z.string().min(1).max(128), args: ToolArgs }),
);

/** Our fields a HumanResponse may carry too: which call, who, and a token for the decision it becomes. */
const ours = { id: Decision.shape.id, approver: Decision.shape.approver, token: Decision.shape.token };

/** LangGraph's HumanResponse (with our optional `id`, `approver` and `token`). */
export const HumanResponse = builtOnce('contract/seed-decisions.HumanResponse', () =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('accept'), args: z.union([z.null(), ActionRequest]).optional(), ...ours }),
    z.strictObject({ type: z.literal('ignore'), args: z.null().optional(), ...ours }),
    z.strictObject({ type: z.literal('response'), args: z.string(), ...ours }),
    z.strictObject({ type: z.literal('edit'), args: ActionRequest, ...ours }),
  ]),
);
export type HumanResponse = z.infer<typeof HumanResponse>;

/** Any shape the `decide` update, the `decision` signal and `POST /api/runs/{id}/decisions` take. */
export type DecisionInputShape = DecideInput | LangChainResume | HumanResponse | HumanResponse[];
export interface LangChainResume {
  decisions: ({ type: 'approve' | 'reject'; message?: string } | { type: 'edit'; edited_action: z.infer<typeof EditedAction> })[];
}

export type Normalized = { ok: true; input: unknown } | { ok: false; message: string };

/** Any accepted shape as our `DecideInput`, or the refusal the planner and the API give it (the same words). */
export function parseDecisionInput(
  raw: unknown,
): { ok: true; input: DecideInput } | { ok: false; code: 'malformed' | 'empty'; message: string } {
  const nonFinite = nonFiniteNumberPath(raw);
  if (nonFinite !== undefined) {
    const message = `Malformed decision input: ${nonFinite} is a number JSON cannot hold (one like 1e400 is read as Infinity).`;
    return { ok: false, code: 'malformed', message };
  }
  const normalized = normalizeDecisionInput(raw);
  if (!normalized.ok)
    return { ok: false, code: 'malformed', message: `Malformed decision input: ${normalized.message}\n${ACCEPTED_SHAPES}` };
  const parsed = DecideInput.safeParse(normalized.input);
  if (parsed.success) return { ok: true, input: parsed.data };
  const empty = parsed.error.issues.some((i) => i.path.join('.') === 'decisions' && i.code === 'too_small');
  const message = `Malformed decision input:\n${z.prettifyError(parsed.error)}`;
  return empty ? { ok: false, code: 'empty', message } : { ok: false, code: 'malformed', message: `${message}\n${ACCEPTED_SHAPES}` };
}

/**
 * The input as our `DecideInput` would have it, still to be parsed; or why a seed shape is malformed. An input that
 * looks like none of the seeds' shapes is handed on as it is, and parsing it says what is wrong.
 */
export function normalizeDecisionInput(raw: unknown): Normalized {
  if (Array.isArray(raw)) return fromHumanResponses(raw);
  if (!isRecord(raw)) return { ok: true, input: raw };
  if ('decisions' in raw) {
    if (!Array.isArray(raw.decisions)) return { ok: true, input: raw };
    const decisions: unknown[] = [];
    for (const [i, d] of raw.decisions.entries()) {
      const one = fromLangChain(d);
      if (!one.ok) return { ok: false, message: `decisions[${i}]: ${one.message}` };
      decisions.push(one.input);
    }
    return { ok: true, input: { ...raw, decisions } };
  }
  if ('type' in raw) return fromHumanResponses([raw]);
  return { ok: true, input: raw };
}

/** A LangChain edit's `edited_action` becomes our `name` and `args`; any other decision is ours already. */
function fromLangChain(d: unknown): Normalized {
  if (!isRecord(d) || !('edited_action' in d)) return { ok: true, input: d };
  const { edited_action, ...rest } = d;
  if (rest.type !== 'edit') return { ok: false, message: '`edited_action` belongs to an edit (type "edit").' };
  if ('args' in rest || 'name' in rest) return { ok: false, message: 'give the edit `edited_action` or `args`/`name`, not both.' };
  const action = EditedAction.safeParse(edited_action);
  if (!action.success) return { ok: false, message: `edited_action is invalid:\n${z.prettifyError(action.error)}` };
  return { ok: true, input: { ...rest, name: action.data.name, args: action.data.args } };
}

function fromHumanResponses(list: unknown[]): Normalized {
  const decisions: Decision[] = [];
  for (const [i, item] of list.entries()) {
    const parsed = HumanResponse.safeParse(item);
    if (!parsed.success) {
      const where = list.length === 1 ? 'HumanResponse' : `HumanResponse [${i}]`;
      return { ok: false, message: `${where} is invalid:\n${z.prettifyError(parsed.error)}` };
    }
    decisions.push(toDecision(parsed.data));
  }
  return { ok: true, input: { decisions } };
}

function toDecision(response: HumanResponse): Decision {
  const { id, approver, token } = response;
  const extras = { ...(id !== undefined && { id }), ...(approver !== undefined && { approver }), ...(token !== undefined && { token }) };
  switch (response.type) {
    case 'accept':
      return response.args
        ? { ...extras, type: 'approve', toolName: response.args.action, argsHash: argsHash(response.args.args) }
        : { ...extras, type: 'approve' };
    case 'ignore':
      return { ...extras, type: 'ignore' };
    case 'response':
      return { ...extras, type: 'respond', message: response.args };
    case 'edit':
      return { ...extras, type: 'edit', name: response.args.action, args: response.args.args };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
