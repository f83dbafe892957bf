/**
 * The search attributes every run keeps current. One list drives the workflow's upserts, the dev server's
 * registration and docker-compose's; the CLI spells the types in PascalCase.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** The run's status (`RunStatus`, src/contract/run-status.ts), as the run last said it. */
export const HitlStatus = defineSearchAttributeKey('HitlStatus', SearchAttributeType.KEYWORD);
export const HitlPendingTools = defineSearchAttributeKey('HitlPendingTools', SearchAttributeType.KEYWORD_LIST);
export const HitlPendingCount = defineSearchAttributeKey('HitlPendingCount', SearchAttributeType.INT);
export const HitlNextDeadline = defineSearchAttributeKey('HitlNextDeadline', SearchAttributeType.DATETIME);
export const HitlAgent = defineSearchAttributeKey('HitlAgent', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTE_KEYS = [HitlStatus, HitlPendingTools, HitlPendingCount, HitlNextDeadline, HitlAgent];

const CLI_TYPE_NAMES: Record<SearchAttributeType, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** `Name=Type` pairs as `temporal server start-dev --search-attribute` and `operator search-attribute create` take them. */
export function searchAttributeCliPairs(): string[] {
  return SEARCH_ATTRIBUTE_KEYS.map((key) => `${key.name}=${CLI_TYPE_NAMES[key.type]}`);
}
