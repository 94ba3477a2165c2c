import { JsonSchemaVersion, type JsonSchema, type JsonSchemaType } from 'aws-cdk-lib/aws-apigateway';
import { z } from 'zod';

/** The formats JSON Schema draft 4 defines; API Gateway's validator knows no others. */
const DRAFT4_FORMATS = new Set(['date-time', 'email', 'hostname', 'ipv4', 'ipv6', 'uri']);

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
type JsonObject = { [key: string]: JsonValue };

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An API Gateway request model (JSON Schema draft 4) from one of the contract's zod schemas, so the
 * gateway and the Lambda check the same rules from one source. Input mode: like the handler, the model
 * lets unknown keys through (zod strips them). A keyword API Gateway would not understand fails synth
 * instead of being silently dropped, except `format` values draft 4 does not define, which zod always
 * pairs with an equivalent `pattern`.
 */
export function apiGatewaySchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-04',
    io: 'input',
    unrepresentable: 'throw',
  }) as JsonObject;
  const { $schema: _version, ...body } = json;
  return { schema: JsonSchemaVersion.DRAFT4, ...convert(body) };
}

function convert(node: JsonObject): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case 'type':
        out.type = value as JsonSchemaType;
        break;
      case 'properties':
        if (!isObject(value)) throw new Error('properties must be an object');
        out.properties = Object.fromEntries(
          Object.entries(value).map(([name, child]) => [name, convert(asObject(child, name))]),
        );
        break;
      case 'items':
        out.items = Array.isArray(value)
          ? value.map((child) => convert(asObject(child, key)))
          : convert(asObject(value, key));
        break;
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
        if (!Array.isArray(value)) throw new Error(`${key} must be an array`);
        out[key] = value.map((child) => convert(asObject(child, key)));
        break;
      case 'additionalProperties':
        out.additionalProperties = typeof value === 'boolean' ? value : convert(asObject(value, key));
        break;
      case 'format':
        if (typeof value === 'string' && DRAFT4_FORMATS.has(value)) out.format = value;
        else if (node.pattern === undefined)
          throw new Error(`format ${String(value)} is not draft 4 and has no pattern`);
        break;
      case 'required':
      case 'enum':
      case 'minLength':
      case 'maxLength':
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
      case 'minItems':
      case 'maxItems':
      case 'pattern':
      case 'description':
      case 'title':
      case 'multipleOf':
      case 'uniqueItems':
        out[key] = value;
        break;
      default:
        throw new Error(`JSON Schema keyword ${key} is not supported in an API Gateway model`);
    }
  }
  return out as JsonSchema;
}

function asObject(value: JsonValue | undefined, where: string): JsonObject {
  if (!isObject(value)) throw new Error(`${where} must hold a schema object`);
  return value;
}
