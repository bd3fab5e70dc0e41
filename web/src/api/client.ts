import createClient from "openapi-fetch";
import type { components, paths } from "./schema";
import { session } from "./session";

export type Schemas = components["schemas"];
export type Group = Schemas["Group"];
export type Participant = Schemas["Participant"];
export type Expense = Schemas["Expense"];
export type ExpenseCreate = Schemas["ExpenseCreate"];
export type Balances = Schemas["Balances"];
export type Transfer = Schemas["Transfer"];
export type HomeGroup = Schemas["HomeGroup"];
export type Change = Schemas["Change"];

/** The typed client: paths, bodies and replies come from /openapi.json at build time. */
export const api = createClient<paths>({ baseUrl: location.origin });

api.use({
  onRequest({ request }) {
    const current = session.get();
    if (current) request.headers.set("Authorization", `Bearer ${current.token}`);
    return request;
  },
});

/** A reply in the api.md error envelope, kept whole so a screen can show its code. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string,
              readonly details: unknown = undefined) {
    super(message);
  }
}

type Envelope = { error?: { code?: string; message?: string; details?: unknown } };

export function apiError(status: number, body: unknown): ApiError {
  const error = (body as Envelope | undefined)?.error;
  return new ApiError(status, error?.code ?? "HTTP_" + status, error?.message ?? `HTTP ${status}`,
                      error?.details);
}

/** The reply's data, or its envelope thrown as an ApiError (a 401 signs the caller out). */
export function must<T>(reply: { data?: T; error?: unknown; response: Response }): T {
  if (reply.response.ok && reply.data !== undefined) return reply.data;
  if (reply.response.ok) return undefined as T; // 204
  if (reply.response.status === 401) session.set(null);
  throw apiError(reply.response.status, reply.error);
}

/** fetch rejects (TypeError) only when no reply came: no network, or the server is down. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError;
}
