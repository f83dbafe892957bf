/** What an edit at the breakpoint before the model may hold, through the planner as decisions reach it. */
import { describe, expect, it } from 'vitest';
import { toolSpecs } from '../tools/registry.js';
import { pendingApproval as pending } from '../../test/helpers/pending-approval.js';
import { planDecisions, type PlanContext } from './decision-plan.js';

const tail = { messages: [{ role: 'tool', tool_call_id: 'r1', content: '[]' }] };
const ctx: PlanContext = {
  pending: [
    pending('break-2', 'breakpoint:beforeModel', tail, { breakpoint: 'beforeModel', allowedDecisions: ['approve', 'edit', 'reject'] }),
  ],
  decided: new Map(),
  available: ['read_file'],
  specs: toolSpecs,
  refusesBlankUserMessages: true,
};
const edit = (messages: unknown[], context = ctx) =>
  planDecisions({ decisions: [{ id: 'break-2', type: 'edit', args: { messages } }], approver: 'ann' }, context);

describe('an edit before the model (patch set 32)', () => {
  it('may not add a user message that says nothing, of spaces, breaks or zero-width characters', () => {
    for (const content of ['', '   ', '\n\u3000\u200b']) {
      const plan = edit([...tail.messages, { role: 'user', content }]);
      expect(plan.ok ? 'planned' : plan.error.code).toBe('invalid_edit_args');
      expect(plan.ok || plan.error.message).toContain('a user message with no text (messages[1])');
    }
  });

  it('takes one that says something; runs before the patch take a blank one as they did', () => {
    const said = edit([...tail.messages, { role: 'user', content: ' Answer in one word. ' }]);
    expect(said.ok && said.decisions[0]!.args).toEqual({
      messages: [...tail.messages, { role: 'user', content: ' Answer in one word. ' }],
    });
    const before = edit([...tail.messages, { role: 'user', content: ' ' }], { ...ctx, refusesBlankUserMessages: false });
    expect(before.ok).toBe(true);
  });
});
