/** Whether a `file:` is served as text or as a base64 blob, from its MIME type (else its extension). */
const TEXT_EXTENSIONS = new Set([
  'txt',
  'md',
  'markdown',
  'json',
  'yaml',
  'yml',
  'csv',
  'tsv',
  'html',
  'htm',
  'css',
  'js',
  'mjs',
  'ts',
  'xml',
  'svg',
  'toml',
  'ini',
  'sql',
  'py',
  'rb',
  'go',
  'rs',
  'java',
  'c',
  'h',
  'sh',
  'log',
]);

export function isTextMime(mimeType: string | null, fileName: string): boolean {
  if (mimeType) {
    const m = mimeType.toLowerCase().split(';')[0]!.trim();
    return (
      m.startsWith('text/') ||
      m.endsWith('+json') ||
      m.endsWith('+xml') ||
      m.endsWith('+yaml') ||
      [
        'application/json',
        'application/xml',
        'application/yaml',
        'application/x-yaml',
        'application/javascript',
        'application/typescript',
        'application/sql',
        'application/toml',
        'application/x-sh',
        'image/svg+xml',
      ].includes(m)
    );
  }
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  return TEXT_EXTENSIONS.has(ext);
}
