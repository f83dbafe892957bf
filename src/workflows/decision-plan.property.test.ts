/**
 * Property tests of the decision check: whatever arrives, in our shape or a seed's, it refuses cleanly or plans
 * only what is allowed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REFUSAL_CODES } from '../contract/refusal-codes.js';
import { argsHash } from '../policy/args-hash.js';
import { DECISION_TYPES } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { toolSpecs } from '../tools/registry.js';
import { planDecisions, type PlanContext } from './decision-plan.js';

const TOOLS = ['write_file', 'cancel_order', 'execute_sql'] as const;
const ARGS = { write_file: { path: 'a.txt', content: 'x' }, cancel_order: { orderId: '1' }, execute_sql: { query: 'SELECT 1' } };
const IDS = ['a', 'b', 'c', 'd', 'gone'];

const pendingArb = fc.uniqueArray(
  fc.record({
    id: fc.constantFrom('a', 'b', 'c', 'd'),
    tool: fc.constantFrom(...TOOLS),
    allowed: fc.subarray([...DECISION_TYPES], { minLength: 1 }),
    approvers: fc.option(fc.subarray(['finance', 'ops', 'ann'], { minLength: 1 }), { nil: undefined }),
    excluded: fc.option(fc.constant(['rita'] as string[]), { nil: undefined }),
    step: fc.integer({ min: 1, max: 2 }),
    // Quorum (rules v4): how many approvals the call needs, and who has approved already.
    required: fc.option(fc.integer({ min: 2, max: 3 }), { nil: undefined }),
    approved: fc.subarray(['ann', 'bob']),
    // Rules v6 (four eyes on a response too) for a call without a quorum; with one, the quorum's v4.
    v6: fc.boolean(),
  }),
  { selector: (p) => p.id, minLength: 1, maxLength: 4 },
);

const id = fc.constantFrom(...IDS);
const approver = fc.option(fc.constantFrom('ann', 'bob', 'rita'), { nil: undefined });
const hash = fc.option(fc.constantFrom(argsHash(ARGS.write_file), argsHash(ARGS.cancel_order), 'sha256:0'), { nil: undefined });
/** Well-formed decisions of each type, with the optional fields each may carry. */
const wellFormed = fc.oneof(
  fc.record({ id, type: fc.constant('approve'), always: fc.option(fc.boolean(), { nil: undefined }), argsHash: hash, approver }),
  fc.record({
    id,
    type: fc.constant('reject'),
    message: fc.option(fc.string(), { nil: undefined }),
    always: fc.option(fc.boolean(), { nil: undefined }),
    approver,
  }),
  fc.record({ id, type: fc.constant('respond'), message: fc.string({ minLength: 1 }), approver }),
  fc.record({ id, type: fc.constant('ignore'), approver }),
  fc.record({
    id,
    type: fc.constant('edit'),
    args: fc.constantFrom(ARGS.write_file, ARGS.cancel_order, { path: 5 }, {}),
    name: fc.option(fc.constantFrom(...TOOLS, 'rm_rf'), { nil: undefined }),
    approver,
  }),
);
const withoutUndefined = (d: Record<string, unknown>) => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined));
const decisionsArb = fc
  .tuple(fc.array(wellFormed, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([decisions, keepIds]) => decisions.map((d) => withoutUndefined(keepIds ? d : { ...d, id: undefined })));

/** The seeds' shapes: LangChain's edit (`edited_action`) and LangGraph's HumanResponse, alone or in a list. */
const actionArb = fc.record({ action: fc.constantFrom(...TOOLS, 'rm_rf'), args: fc.constantFrom(ARGS.write_file, ARGS.cancel_order, {}) });
const humanResponseArb = fc
  .tuple(
    fc.oneof(
      fc.record({ type: fc.constant('accept'), args: fc.option(actionArb, { nil: null }) }),
      fc.record({ type: fc.constant('ignore'), args: fc.constant(null) }),
      fc.record({ type: fc.constant('response'), args: fc.string() }),
      fc.record({ type: fc.constant('edit'), args: actionArb }),
    ),
    fc.option(id, { nil: undefined }),
    approver,
  )
  .map(([response, callId, who]) => withoutUndefined({ ...response, id: callId, approver: who }));
const langChainEditArb = fc
  .record({
    id,
    edited_action: actionArb.map(({ action, args }) => ({ name: action, args })),
    message: fc.option(fc.string(), { nil: undefined }),
  })
  .map((d) => withoutUndefined({ ...d, type: 'edit' }));

const inputArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({ decisions: decisionsArb, approver, groups: fc.option(fc.subarray(['finance', 'ops']), { nil: undefined }) })
      .map(withoutUndefined),
  },
  { weight: 2, arbitrary: fc.oneof(humanResponseArb, fc.array(humanResponseArb, { minLength: 1, maxLength: 4 })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ decisions: fc.array(fc.oneof(wellFormed, langChainEditArb), { minLength: 1, maxLength: 4 }), approver })
      .map(withoutUndefined),
  },
  // Anything at all: wrong shapes, unknown fields, empty lists.
  { weight: 1, arbitrary: fc.jsonValue() },
  { weight: 1, arbitrary: fc.record({ decisions: fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 3 }) }) },
);

function context(items: Parameters<typeof toPending>[0]): PlanContext {
  return {
    pending: toPending(items),
    decided: new Map([['gone', { type: 'approve', approver: 'ann' }]]),
    available: [...TOOLS],
    specs: toolSpecs,
  };
}

interface PendingItem {
  id: string;
  tool: (typeof TOOLS)[number];
  allowed: string[];
  approvers?: string[];
  excluded?: string[];
  step: number;
  required?: number;
  approved: string[];
  v6: boolean;
}

function toPending(items: PendingItem[]): PendingApproval[] {
  return items.map((p) => ({
    id: p.id,
    toolName: p.tool,
    args: ARGS[p.tool],
    argsHash: argsHash(ARGS[p.tool]),
    description: '',
    allowedDecisions: p.allowed as PendingApproval['allowedDecisions'],
    requestedAt: '2026-01-01T00:00:00.000Z',
    deadline: '2026-01-02T00:00:00.000Z',
    step: p.step,
    ...(p.approvers && { approvers: p.approvers }),
    ...(p.excluded && { excludedApprovers: p.excluded }),
    onTimeout: 'reject',
    rule: 'test',
    ...(!p.required && p.v6 && { checks: 6 }),
    ...(p.required && {
      checks: 4,
      requiredApprovals: p.required,
      approvals: p.approved.slice(0, p.required - 1).map((approver) => ({ approver, at: '2026-01-01T01:00:00.000Z' })),
    }),
  }));
}

describe('planDecisions (property)', () => {
  it('never throws; refuses with a known code and words, or plans only allowed, distinct, pending calls', { timeout: 120_000 }, () => {
    let planned = 0;
    let refused = 0;
    let counted = 0;
    fc.assert(
      fc.property(pendingArb, inputArb, (items, input) => {
        const ctx = context(items);
        const plan = planDecisions(input, ctx);
        expect(planDecisions(input, ctx)).toEqual(plan);
        if (!plan.ok) {
          refused++;
          expect(REFUSAL_CODES).toContain(plan.error.code);
          expect(plan.error.message.length).toBeGreaterThan(10);
          return;
        }
        planned++;
        const ids = plan.decisions.map((d) => d.call.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const d of plan.decisions) {
          const call = ctx.pending.find((p) => p.id === d.call.id)!;
          expect(call).toBeDefined();
          expect(call.allowedDecisions).toContain(d.decision.type);
          if (d.decision.argsHash !== undefined) expect(d.decision.argsHash).toBe(call.argsHash);
          if (d.decision.toolName !== undefined) expect(d.decision.toolName).toBe(call.toolName);
          if (call.approvers) {
            const groups = (input as { groups?: string[] }).groups ?? [];
            expect(call.approvers.includes(d.approver!) || groups.some((g) => call.approvers!.includes(g))).toBe(true);
          }
          // Four eyes: whatever runs the tool, and since decision rules v6 a response, which answers for it.
          const fourEyes =
            d.decision.type === 'approve' || d.decision.type === 'edit' || (d.decision.type === 'respond' && (call.checks ?? 1) >= 6);
          if (fourEyes) expect(call.excludedApprovers ?? []).not.toContain(d.approver);
          if (d.decision.type === 'edit') expect(toolSpecs[d.toolName]!.parameters.safeParse(d.args).success).toBe(true);
          expect(d.argsHash).toBe(argsHash(d.args));
          // Quorum: an approval is counted once, for a named approver who has not approved yet, never as "always".
          if (call.requiredApprovals && d.decision.type === 'approve') {
            expect(d.approver).toBeDefined();
            expect((call.approvals ?? []).map((a) => a.approver)).not.toContain(d.approver);
            expect(d.decision.always).not.toBe(true);
            expect(d.quorum).toEqual({ approvals: (call.approvals?.length ?? 0) + 1, required: call.requiredApprovals });
            counted++;
          } else expect(d.quorum).toBeUndefined();
        }
      }),
      {
        numRuns: 3000,
        // One quorum approval always among the runs: the random ones reach it rarely (none, once in CI), and the
        // quorum checks above must run every time.
        examples: [
          [
            [
              {
                id: 'a',
                tool: TOOLS[0],
                allowed: ['approve'],
                approvers: undefined,
                excluded: undefined,
                step: 1,
                required: 2,
                approved: [],
                v6: false,
              },
            ],
            { decisions: [{ id: 'a', type: 'approve' }], approver: 'bob' },
          ],
        ],
      },
    );
    console.log(`planDecisions property: 3000 runs, ${planned} planned (${counted} quorum approvals), ${refused} refused`);
    expect(planned).toBeGreaterThan(20);
    expect(counted).toBeGreaterThan(0);
  });
});

describe('planDecisions under a quorum (property)', () => {
  it('applied one after another, any approvals complete the call exactly when N distinct approvers have approved', () => {
    const people = ['ann', 'bob', 'cyd', 'rita'];
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.array(fc.record({ who: fc.constantFrom(...people), type: fc.constantFrom('approve', 'approve', 'reject') }), { maxLength: 12 }),
        (required, attempts) => {
          let call: PendingApproval | undefined = {
            ...toPending([
              { id: 'a', tool: 'write_file', allowed: ['approve', 'reject'], step: 1, excluded: ['rita'], approved: [], v6: false },
            ])[0]!,
            checks: 4,
            requiredApprovals: required,
          };
          const counted: string[] = [];
          let settled: string | undefined;
          for (const { who, type } of attempts) {
            const ctx: PlanContext = { pending: call ? [call] : [], decided: new Map(), available: [...TOOLS], specs: toolSpecs };
            const plan = planDecisions({ decisions: [{ id: 'a', type }], approver: who }, ctx);
            if (settled) {
              expect(plan.ok).toBe(false);
              continue;
            }
            if (type === 'approve' && (who === 'rita' || counted.includes(who))) {
              expect(!plan.ok && plan.error.code).toBe(who === 'rita' ? 'four_eyes' : 'already_approved');
              continue;
            }
            expect(plan.ok).toBe(true);
            if (!plan.ok) return;
            const [d] = plan.decisions;
            if (type === 'reject') {
              settled = 'reject';
              call = undefined;
              continue;
            }
            // What applyPlan does: count a partial approval on the call; settle it when the quorum is complete.
            counted.push(who);
            expect(d!.quorum).toEqual({ approvals: counted.length, required });
            if (d!.quorum!.approvals === required) {
              settled = 'approve';
              call = undefined;
            } else call = { ...call!, approvals: counted.map((approver) => ({ approver, at: '2026-01-01T01:00:00.000Z' })) };
          }
          if (settled === 'approve') expect(new Set(counted).size).toBe(required);
          else expect(counted.length).toBeLessThan(required);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
