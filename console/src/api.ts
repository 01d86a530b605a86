// The console's only way to the catalog: the same Iceberg REST and management API engines and
// operators use, on the origin that served the page, with the signed-in principal's bearer token.

const TOKEN_KEY = "puddle.token";

/** An answer other than 2xx, with the message of the catalog's ErrorResponse when it has one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The token of this browser tab's session: kept in sessionStorage, gone when the tab closes. */
export const session = {
  token(): string | null {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  signIn(token: string): void {
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  signOut(): void {
    sessionStorage.removeItem(TOKEN_KEY);
  },
};

/** Exchanges a principal's client credentials for a token at the catalog's token endpoint. */
export async function tokenFor(clientId: string, clientSecret: string): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: clientId,
    client_secret: clientSecret,
    scope: "PRINCIPAL_ROLE:ALL",
  });
  const response = await fetch("/v1/oauth/tokens", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
    credentials: "omit",
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof answer.access_token !== "string") {
    const reason = answer.error_description ?? answer.error ?? response.statusText;
    throw new ApiError(response.status, `Sign-in refused: ${String(reason)}`);
  }
  return answer.access_token;
}

/** Calls the API; null for a 204. A 401 ends the session (the token expired or was revoked). */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const token = session.token();
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "omit",
  });
  if (response.status === 401) {
    session.signOut();
  }
  if (!response.ok) {
    throw new ApiError(response.status, await errorMessage(response));
  }
  if (response.status === 204) {
    return null as T;
  }
  return parseJson(await response.text()) as T;
}

/**
 * JSON with Iceberg's 64-bit ids intact: a snapshot id is a long, which a JavaScript number
 * rounds, so an integer beyond 2^53 is kept as the digits the server sent (where the browser gives
 * revivers the source text, as current Chromium, Firefox and Safari do).
 */
export function parseJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === "number" && !Number.isSafeInteger(value) && Number.isInteger(value)
      ? (context?.source ?? value)
      : value,
  );
}

async function errorMessage(response: Response): Promise<string> {
  try {
    const answer = (await response.json()) as { error?: { message?: string }; message?: string };
    return answer.error?.message ?? answer.message ?? `${response.status} ${response.statusText}`;
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

/** A path segment, percent-encoded. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/** A namespace as the REST path spells it: its levels joined by the unit separator (%1F). */
export function namespacePath(levels: string[]): string {
  return levels.map(encodeURIComponent).join("%1F");
}
