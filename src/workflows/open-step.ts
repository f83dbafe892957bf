/**
 * A step opens with the model's calls: each is validated against its tool and classified by the policy. Invalid
 * calls never reach a human (they go back to the model as errors); gated ones are announced to approvers, or
 * settled at once by an `always` decision for their tool.
 */
import { log } from '@temporalio/workflow';
import { classifyCall } from '../policy/classify-call.js';
import type { CallRecord } from '../schemas/call-record.js';
import { toolSpecs } from '../tools/registry.js';
import { parseToolArguments } from '../tools/tool-arguments.js';
import type { AgentRun } from './agent-run.js';
import { schemaCheckMode } from './schema-check-mode.js';
import { classifyOptions } from './description-bound.js';
import { announce, requestApproval } from './announce.js';
import { preparedFirst } from './call-preparation.js';
import { mcpToolOf } from './mcp-tools.js';
import { PATCHES, takesPatch } from './patches.js';
import { proposalGate } from './proposal-gate.js';
import { droppedCallsNote, type Intake } from './reply-intake.js';
import { applyAlways } from './run-decisions.js';
import { standingDecision } from './standing-decisions.js';
import { workflowNow } from './workflow-clock.js';

export function openStep(run: AgentRun, intake: Intake, ownIds: boolean): void {
  const requestedAt = workflowNow();
  const records = intake.calls.map((call, i): CallRecord => {
    const record: CallRecord = {
      id: call.id,
      ...(call.modelId !== call.id && { modelId: call.modelId }),
      toolName: call.name,
      rawArgs: call.rawArgs,
      step: run.step,
      rule: '',
      status: 'waiting',
      ...(i === 0 && intake.droppedCalls > 0 && { note: droppedCallsNote(intake.droppedCalls) }),
      ...(call.writtenBy && { writtenBy: call.writtenBy }),
    };
    if (call.problem) return { ...record, problem: call.problem, rule: 'not gated: too large' };
    classify(run, record, requestedAt, ownIds);
    return record;
  });
  run.book.open(records);
  run.events.callsProposed(records);
  for (const record of records) {
    const always = record.gate && standingDecision(run, record);
    if (always) applyAlways(run, record, always);
    else if (record.pending) requestApproval(run, record.pending);
  }
}

function classify(run: AgentRun, record: CallRecord, requestedAt: number, ownIds: boolean): void {
  try {
    const mcp = mcpToolOf(run.snapshot, record.toolName);
    const parsed = parseToolArguments(record.toolName, record.rawArgs, toolSpecs, run.snapshot.tools, run.snapshot.mcpTools, {
      plainJsonOnly: takesPatch(PATCHES.toolArgumentsPlainJson),
      schemaChecks: schemaCheckMode(),
    });
    if (!parsed.ok) {
      // Invalid calls never reach a human: the tool activity answers them with the error (MCP calls: the run does,
      // as only the run knows the schema they were checked against).
      record.rule = `not gated: ${parsed.problem.replace('_', ' ')}`;
      if (mcp) record.problem = parsed.message;
      return;
    }
    record.args = parsed.args;
    const facts = { context: run.input.context ?? {}, requestedBy: run.input.requestedBy, agent: run.agent, callId: record.id };
    const classification = classifyCall(run.policy, record.toolName, parsed.args, facts, mcp?.annotations, classifyOptions());
    record.rule = classification.rule;
    if (!classification.gated) return;
    // A call a person wrote waits for someone who may approve it, whatever the deadline says (proposal-gate.ts).
    record.gate = record.writtenBy ? proposalGate(classification.settings, true) : classification.settings;
    // Calls described by their tool, reviewed first or prechecked are shown once that is done (src/workflows/gated-call.ts).
    if (!preparedFirst(run, record)) announce(run, record, classification.settings.description, ownIds, requestedAt);
  } catch (err) {
    // Validation and policy code is pure and should never throw; if it does on some input, that input goes back to
    // the model as an error rather than failing the workflow task forever.
    log.warn('could not classify a tool call', { toolName: record.toolName, error: String(err) });
    record.args = undefined;
    record.gate = undefined;
    record.problem = `Error: the arguments of this ${record.toolName} call could not be checked (${String(err)}). Call the tool again with simpler arguments.`;
    record.rule = 'not gated: could not be checked';
  }
}
