/** A realistic 50-tool manifest (test/print-final.test.ts, and a bench input: `node test/helpers/fifty-tools.mjs > x.yaml`). */
/** A name of `n` characters from `stem` (snake_case, as manifests name things). */
const sized = (/** @type {string} */ stem, /** @type {number} */ n) =>
  (stem + '_x'.repeat(60)).slice(0, Math.max(n, stem.length)).replace(/_$/, 'x');

/** A realistic manifest of 50 tools: refs, enums, nested objects, outputs on half the tools, long and short names and descriptions. */
export function fiftyTools() {
  const lines = [
    'version: 1',
    'server: { name: fifty, version: 1.0.0, title: Fifty tools, description: A realistic server }',
    'transports: { stdio: {} }',
    'schemas:',
    '  Units: { type: string, enum: [metric, imperial], default: metric, description: Unit system }',
    '  Point: { type: object, properties: { lat: { type: number }, lon: { type: number } }, required: [lat, lon] }',
    'tools:',
  ];
  for (let i = 0; i < 50; i++) {
    const name = sized(`tool${i}`, 3 + ((i * 7) % 70));
    const description =
      i % 3 === 0
        ? 'Short.'
        : `A longer description of tool ${i} that says what it does, ${'and more '.repeat(i % 9)}in detail.`;
    lines.push(
      `  ${name}:`,
      `    description: ${JSON.stringify(description)}`,
      '    input:',
      '      type: object',
      '      properties:',
    );
    lines.push(
      `        ${sized('where', 2 + (i % 40))}: { $ref: '#/schemas/Point' }`,
      `        units: { $ref: '#/schemas/Units' }`,
    );
    lines.push(
      `        mode: { type: string, enum: [${Array.from({ length: 1 + (i % 12) }, (_, k) => `mode_${k}`).join(', ')}] }`,
    );
    lines.push(
      '        options: { type: object, properties: { depth: { type: integer, minimum: 1 }, tags: { type: array, items: { type: string } } } }',
    );
    lines.push('      required: [units]');
    if (i % 2 === 0)
      lines.push(
        '    output:',
        '      type: object',
        '      properties:',
        `        ${sized('result', 3 + (i % 50))}: { type: string, description: ${JSON.stringify(description)} }`,
      );
  }
  lines.push('resources:');
  for (let i = 0; i < 4; i++)
    lines.push(
      `  ${sized(`res${i}`, 4 + i * 25)}:`,
      `    uri: fifty://r/${i}`,
      '    mimeType: text/plain',
      `    text: ${JSON.stringify('Some text '.repeat(i * 4 + 1))}`,
    );
  lines.push('  live:', '    uri: fifty://live', '    mimeType: application/json');
  lines.push('resourceTemplates:');
  for (let i = 0; i < 3; i++) {
    lines.push(
      `  ${sized(`tpl${i}`, 4 + i * 30)}:`,
      `    uriTemplate: fifty://t${i}/{${sized('id', 2 + i * 30)}}`,
      '    params:',
      `      ${sized('id', 2 + i * 30)}: { type: string }`,
    );
    if (i > 0) lines.push('    complete:', `      ${sized('id', 2 + i * 30)}: handler`);
    if (i === 1) lines.push('    list: true');
  }
  lines.push('prompts:');
  for (let i = 0; i < 3; i++) {
    lines.push(
      `  ${sized(`prompt${i}`, 6 + i * 30)}:`,
      `    description: Prompt ${i}`,
      '    arguments:',
      `      ${sized('topic', 5 + i * 30)}: { description: The topic, required: true${i === 2 ? ', complete: handler' : ''} }`,
    );
    if (i !== 1)
      lines.push(
        '    messages:',
        '      - role: user',
        `        text: ${JSON.stringify(`Talk about {{${sized('topic', 5 + i * 30)}}}. ${'Please. '.repeat(i * 6)}`)}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(fiftyTools());
