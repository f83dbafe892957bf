/**
 * The gRPC status codes this project tells apart, by name: one table for the connection diagnosis, the API's
 * "Temporal is away" answer and `/readyz`.
 */
export const GRPC_STATUS = {
  CANCELLED: 1,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

/** The name of a status in the table, or undefined for another one. */
export function grpcStatusName(code: number): string | undefined {
  return Object.entries(GRPC_STATUS).find(([, value]) => value === code)?.[0];
}
