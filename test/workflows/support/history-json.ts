/**
 * Workflow histories as JSON files: the SDK's conversion (historyToJSON and historyFromJSON of
 * @temporalio/common), the same proto JSON the Temporal CLI and Web UI export.
 *
 * Why a fallback: in SDK 1.24 those helpers hand a reflected type of @temporalio/proto's
 * protobufjs to the JSON functions of @temporalio/common's protobufjs, which check it with
 * `instanceof`. When npm installs the two packages with a copy of protobufjs each (it does here:
 * another major version of protobufjs sits at the top of node_modules for @grpc/proto-loader),
 * the check fails with "type must be a Type". The fallback makes the same calls with the JSON
 * functions of the protobufjs copy @temporalio/proto uses. It reads only files in proto JSON (what
 * toJSON writes), not the older tctl format the SDK's reader also accepts.
 */
import { historyFromJSON, historyToJSON, type History } from '@temporalio/common/lib/proto-utils';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';
import { createRequire } from 'node:module';

interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): unknown;
}

let fallback: { readonly json: ProtoJson; readonly historyType: unknown } | undefined;
function protoJson(): NonNullable<typeof fallback> {
  if (fallback === undefined) {
    // Resolved from @temporalio/proto's folder: its own copy, whose Type its reflected types are.
    const json = createRequire(require.resolve('@temporalio/proto/package.json'))('protobufjs/ext/protojson') as ProtoJson;
    const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType('temporal.api.history.v1.History');
    fallback = { json, historyType };
  }
  return fallback;
}

const isSplitProtobufjs = (err: unknown): boolean => err instanceof TypeError && err.message === 'type must be a Type';

/** A fetched history as the JSON text of a fixture file. */
export function historyToJson(history: History): string {
  try {
    return historyToJSON(history);
  } catch (err) {
    if (!isSplitProtobufjs(err)) throw err;
    const { json, historyType } = protoJson();
    return JSON.stringify(json.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history)), null, 2);
  }
}

/** A fixture file's parsed JSON as a History the replayer takes. */
export function historyFromJson(parsed: unknown): History {
  try {
    return historyFromJSON(parsed);
  } catch (err) {
    if (!isSplitProtobufjs(err)) throw err;
    const { json, historyType } = protoJson();
    return json.fromJson(historyType, parsed, { ignoreUnknownFields: true }) as History;
  }
}
