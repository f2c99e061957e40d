import { Type, type TSchema } from '@sinclair/typebox';
import { IDEMPOTENCY_KEY_HEADER, KEY_PATTERN_SOURCE, REPLAYED_HEADER } from './idempotency';
import type { AnyRoute } from './route';

export const ErrorBody = Type.Object({ error: Type.String({ description: 'What went wrong, for a person to read.' }) }, {
  additionalProperties: false,
});

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request: a parameter or the body is invalid',
  401: 'Missing, malformed, unknown or revoked API key',
  404: 'Not found (or not this account\'s)',
  409: 'The transition is not allowed from the current status',
  413: 'Request body over 1 MB',
  415: 'Content-Type is not application/json',
  422: `The ${IDEMPOTENCY_KEY_HEADER} was used with a different request (method, path, query or body) in the last 24 hours`,
  429: 'Rate limit exceeded',
  431: 'Request line and headers over 64 KB (answered by the HTTP server, without a body)',
  500: 'Internal server error',
  503: 'A dependency (PostgreSQL or Temporal) is unavailable',
};

/** Answered by Node's HTTP server before the application sees the request: no JSON body. */
const BODYLESS = new Set([431]);

const seconds = { type: 'integer', minimum: 0 };
/** The IETF draft's rate-limit fields, as src/api/rate-limit/rate-limit-headers.ts sets them. */
const RATE_LIMIT_HEADERS: Record<string, unknown> = {
  'RateLimit-Limit': { required: true, description: 'Requests this account may make on this surface per minute.', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { required: true, description: 'Requests left in the current window after this one.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { required: true, description: 'Seconds until the window starts over.', schema: seconds },
};
const RETRY_HEADERS: Record<string, unknown> = {
  ...RATE_LIMIT_HEADERS,
  'Retry-After': { required: true, description: 'Seconds to wait before the next request can pass.', schema: seconds },
};

/** TypeBox schemas carry symbol keys and `$id`s Ajv needs but an OpenAPI reader does not. */
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

function toOpenApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The header of routes declared `idempotent` (idempotency.ts). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same request (method, path, query and body bytes) within 24 hours answers the first ' +
    `answer again (status, body, Location), with \`${REPLAYED_HEADER}: true\`, and does nothing new. The same key with another request is a ` +
    '422; while the first request with it is still running, a 409. Only 2xx and 4xx answers are kept: after a 5xx the key can be used again. ' +
    'Keys are per account, 1 to 255 printable ASCII characters (a 400 otherwise).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: KEY_PATTERN_SOURCE },
};

const REPLAYED_HEADERS: Record<string, unknown> = {
  [REPLAYED_HEADER]: {
    required: false,
    description: `\`true\` when this is the stored answer to an earlier request with the same ${IDEMPOTENCY_KEY_HEADER}.`,
    schema: { type: 'string', enum: ['true'] },
  },
};

/** A 409 of an idempotent route: its key in flight, and whatever conflict the route itself declares. */
function idempotentConflictText(route: AnyRoute): string {
  const inFlight = `a request with the same ${IDEMPOTENCY_KEY_HEADER} is still in progress`;
  return route.errors?.includes(409) ? `${ERROR_TEXT[409]}; or ${inFlight}` : `Conflict: ${inFlight}`;
}

/** Statuses answered before an Idempotency-Key is looked at, which a replay therefore never has. */
const BEFORE_THE_KEY = new Set([401, 413, 415, 422, 429, 431, 500, 503]);

function parametersOf(route: AnyRoute): unknown[] {
  const out: unknown[] = [];
  const add = (where: 'path' | 'query', schema: TSchema | undefined): void => {
    if (!schema) return;
    const s = plain(schema) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      const { description, ...rest } = prop;
      out.push({ name, in: where, required: where === 'path' || (s.required ?? []).includes(name), description, schema: rest });
    }
  };
  add('path', route.params);
  add('query', route.query);
  if (route.idempotent === true) out.push(IDEMPOTENCY_KEY_PARAMETER);
  return out;
}

function errorStatuses(route: AnyRoute): number[] {
  const set = new Set<number>([500]);
  if (route.auth !== 'none') set.add(401).add(429);
  // A raw body can fail to read (400) as much as a JSON one can fail to parse.
  if (route.params || route.query || route.body || route.rawBody) set.add(400);
  if (route.body || route.rawBody) set.add(413).add(415);
  // An id in the path may name nothing, or something of another account.
  if (route.params) set.add(404);
  // The URL carries the client's values: long enough, the HTTP server refuses it before routing.
  if (route.params || route.query) set.add(431);
  // A malformed key (400), a key still in flight (409), a key used with another request (422).
  if (route.idempotent === true) set.add(400).add(409).add(422);
  for (const s of route.errors ?? []) set.add(s);
  return [...set].sort((a, b) => a - b);
}

/** Whether `{}` fails the body schema, i.e. whether a request without a body is refused. */
function bodyIsRequired(schema: TSchema): boolean {
  const s = schema as { type?: unknown; required?: unknown };
  return s.type !== 'object' || (Array.isArray(s.required) && s.required.length > 0);
}

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description: string;
  readonly serverUrl: string;
}

/** Builds the OpenAPI 3.1 document from the same route declarations that serve requests. */
export function buildOpenApi(routes: readonly AnyRoute[], info: OpenApiInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.hidden) continue;
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      responses[status] = {
        description: spec.description,
        ...(spec.schema
          ? { content: { 'application/json': { schema: plain(spec.schema) } } }
          : spec.contentType
            ? { content: Object.fromEntries([spec.contentType, ...(spec.alsoContentTypes ?? [])].map((type) => [type, {}])) }
            : {}),
      };
    }
    for (const status of errorStatuses(route)) {
      const text = status === 409 && route.idempotent === true ? idempotentConflictText(route) : ERROR_TEXT[status];
      responses[String(status)] ??= {
        description: text ?? 'Error',
        ...(BODYLESS.has(status) ? {} : { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }),
      };
    }
    if (route.auth !== 'none') {
      // Counted routes: every answer after authentication carries the account's rate-limit state.
      for (const [status, response] of Object.entries(responses)) {
        if (status === '401' || BODYLESS.has(Number(status))) continue;
        const r = response as Record<string, unknown>;
        r.headers = { ...(r.headers as object | undefined), ...(status === '429' ? RETRY_HEADERS : RATE_LIMIT_HEADERS) };
      }
    }
    if (route.idempotent === true) {
      for (const [status, response] of Object.entries(responses)) {
        if (BEFORE_THE_KEY.has(Number(status))) continue;
        const r = response as Record<string, unknown>;
        r.headers = { ...(r.headers as object | undefined), ...REPLAYED_HEADERS };
      }
    }
    const op: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      parameters: parametersOf(route),
      responses,
      security: route.auth === 'a' ? [{ bearerAuth: [] }] : route.auth === 'b' ? [{ apiKeyAuth: [] }] : [],
    };
    if (route.rawBody) {
      const content: Record<string, unknown> = {};
      for (const type of route.rawBody.contentTypes) content[type] = { schema: { type: 'string', contentMediaType: type } };
      op.requestBody = { required: true, description: route.rawBody.description, content };
    }
    if (route.body) {
      // A bodiless request is validated as `{}` (mount.ts): the body is required only when that fails.
      op.requestBody = { required: bodyIsRequired(route.body), content: { 'application/json': { schema: plain(route.body) } } };
    }
    const p = toOpenApiPath(route.path);
    paths[p] = { ...(paths[p] ?? {}), [route.method]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: { Error: plain(ErrorBody) },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Surface A: `Authorization: Bearer <API_KEY>`' },
        apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Surface B: `X-API-Key: <API_KEY>`' },
      },
    },
  };
}
