/** Keywords of the JSON Schema drafts mcpgen accepts (2020-12, with 2019-09 and draft-07 spellings). */
export const SCHEMA_KEYWORDS: readonly string[] = [
  // core
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$vocabulary',
  '$comment',
  '$defs',
  'definitions',
  // applicator
  'prefixItems',
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'properties',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
  'propertyNames',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'unevaluatedItems',
  'unevaluatedProperties',
  // validation
  'type',
  'const',
  'enum',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  // meta-data, format, content
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
];

/**
 * Keys that are no JSON Schema keyword but that schemas written for other tools carry on purpose
 * (OpenAPI, VS Code, ajv-errors, react-jsonschema-form, json-schema-to-typescript, draft-04 `id`):
 * never taken for a misspelled keyword (`example` is not a typo of `examples`).
 */
export const KNOWN_ANNOTATIONS: ReadonlySet<string> = new Set([
  'id',
  'example',
  'nullable',
  'discriminator',
  'xml',
  'externalDocs',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'deprecationMessage',
  'errorMessage',
  'enumNames',
  'tsType',
]);

/** `x-mcp-header`, `ui:widget`: a vendor's own key, whatever its value. */
export function isVendorKey(key: string): boolean {
  return /^x-/i.test(key) || key.includes(':');
}
