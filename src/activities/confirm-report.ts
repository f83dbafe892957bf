import { Context } from '@temporalio/activity';
import { QueryNotRegisteredError } from '@temporalio/client';
import { sentReportQuery } from '../contract/sent-report-query.js';

/** Whether a sub-agent sent the report its parent received: `unconfirmable` when the sub-agent's run cannot say. */
export type ReportConfirmation = 'confirmed' | 'refuted' | 'unconfirmable';

export interface ConfirmReportInput {
  workflowId: string;
  seq: number;
  digest: string;
}

/**
 * A parent's check of a sub-agent's report (patch reportsConfirmed): it asks the sub-agent, by the workflow id it
 * started it under, for the digest of the report it sent under that number. A query, because a workflow cannot ask
 * another run anything itself. A sub-agent on code from before the query cannot say (`unconfirmable`), and its
 * report is taken as before; any other failure retries, then fails, and the parent ignores the report.
 */
export function createConfirmReport() {
  return {
    async confirmSubAgentReport({ workflowId, seq, digest }: ConfirmReportInput): Promise<ReportConfirmation> {
      try {
        const sent = await Context.current().client.workflow.getHandle(workflowId).query(sentReportQuery, seq);
        if (sent === 'unconfirmable') return 'unconfirmable';
        return sent === digest ? 'confirmed' : 'refuted';
      } catch (err) {
        if (err instanceof QueryNotRegisteredError) return 'unconfirmable';
        throw err;
      }
    },
  };
}
