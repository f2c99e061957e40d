/**
 * The operations of /openapi.json as the mutation fuzzer needs them: where each one takes input
 * (path and query parameters, a JSON body with its schema, a JSON body checked by signature) and
 * who may call it. Read from the served document, so a new route is fuzzed without a change here.
 */

/** A JSON Schema as the document carries it (TypeBox output, OpenAPI 3.1). */
export type JsonSchema = Readonly<Record<string, unknown>>;

export type Surface = 'a' | 'b' | 'none';

export interface Parameter {
  readonly name: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
}

export type OperationBody =
  /** application/json with a schema: validated member by member. */
  | { readonly kind: 'json'; readonly schema: JsonSchema; readonly required: boolean }
  /** application/json read as bytes (a webhook whose signature covers them): JSON text all the same. */
  | { readonly kind: 'signed-json' }
  /** Any other media type (CSV, MIME, a form): the fuzzer sends it empty, with its content type. */
  | { readonly kind: 'other'; readonly contentType: string };

export interface Operation {
  /** `POST /campaigns/{id}/pause`: how the run names it in its counts. */
  readonly label: string;
  readonly method: string;
  /** The OpenAPI path template. */
  readonly path: string;
  readonly surface: Surface;
  readonly pathParams: readonly Parameter[];
  readonly queryParams: readonly Parameter[];
  readonly body?: OperationBody;
  /** Documented statuses, whether each documents a JSON body, and the members its schema names (an error may carry more than `error`, e.g. a 409's `reason`). */
  readonly responses: ReadonlyMap<number, { readonly json: boolean; readonly members?: readonly string[] }>;
}

interface DocParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface DocOperation {
  parameters?: DocParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }>;
  security?: Record<string, unknown>[];
}
export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, DocOperation>>;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

function surfaceOf(op: DocOperation): Surface {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.includes('bearerAuth')) return 'a';
  if (schemes.includes('apiKeyAuth')) return 'b';
  return 'none';
}

function bodyOf(op: DocOperation): OperationBody | undefined {
  const content = op.requestBody?.content;
  if (!content) return undefined;
  const json = content['application/json'];
  if (json) {
    // A raw body is documented as a string of its media type; a parsed one by its object schema.
    const schema = json.schema ?? {};
    if (schema['type'] === 'string') return { kind: 'signed-json' };
    return { kind: 'json', schema, required: op.requestBody?.required === true };
  }
  const [first] = Object.keys(content);
  return first === undefined ? undefined : { kind: 'other', contentType: first };
}

function parametersIn(op: DocOperation, where: 'path' | 'query'): Parameter[] {
  return (op.parameters ?? []).filter((p) => p.in === where).map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} }));
}

/** Every operation of the document, in its order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const responses = new Map<number, { json: boolean; members: string[] }>();
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const jsonType = Object.keys(response.content ?? {}).find((t) => t.startsWith('application/json'));
        const schema = jsonType === undefined ? undefined : response.content?.[jsonType]?.schema;
        responses.set(Number(status), { json: jsonType !== undefined, members: Object.keys(schema?.properties ?? {}) });
      }
      out.push({
        label: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        surface: surfaceOf(op),
        pathParams: parametersIn(op, 'path'),
        queryParams: parametersIn(op, 'query'),
        body: bodyOf(op),
        responses,
      });
    }
  }
  return out;
}

/**
 * The operations the mutation run covers: every one that takes JSON (a body) or parameters. The
 * rest take no input a mutation could change (GET /v1/me, a CSV upload, raw MIME); schemathesis
 * covers them.
 */
export function fuzzableOperations(doc: OpenApiDocument): { fuzzed: Operation[]; skipped: Operation[] } {
  const fuzzed: Operation[] = [];
  const skipped: Operation[] = [];
  for (const op of operationsOf(doc)) {
    const takesJson = op.body !== undefined && op.body.kind !== 'other';
    (takesJson || op.pathParams.length > 0 || op.queryParams.length > 0 ? fuzzed : skipped).push(op);
  }
  return { fuzzed, skipped };
}
