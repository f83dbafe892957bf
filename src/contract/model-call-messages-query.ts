/**
 * Internal to runs, not for clients: a worker that has not kept what a run sent its latest model call asks the run for
 * those messages, by their chain hash (src/contract/message-chain.ts), to rebuild the call it runs. The run answers
 * them only to that hash, and only for its latest call (null otherwise): nothing the run's history does not hold.
 */
import { defineQuery } from '@temporalio/workflow';
import type { ChatMessage } from '../schemas/chat-message.js';

export const modelCallMessagesQuery = defineQuery<ChatMessage[] | null, [string]>('hitl.modelCallMessages');
