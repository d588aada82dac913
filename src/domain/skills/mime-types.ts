/** MIME type of a SKILL.md (SEP-2640 "Resource Metadata"). */
export const PM_SKILL_MD_MIME_TYPE = 'text/markdown';
/** MIME type of a directory resource (SEP-2640 "Directory Listing"). */
export const PM_DIRECTORY_MIME_TYPE = 'inode/directory';

const TEXT_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  text: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  xml: 'application/xml',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'application/x-sh',
  svg: 'image/svg+xml',
};

const BINARY_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  wasm: 'application/wasm',
};

/**
 * A file's natural MIME type from its extension (SEP-2640: supporting files use their natural
 * type). Unknown extensions are `text/plain` when the body is UTF-8, else
 * `application/octet-stream`.
 */
export function pmSkillFileMimeType(fileName: string, isUtf8: boolean): string {
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  return BINARY_TYPES[extension] ?? TEXT_TYPES[extension] ?? (isUtf8 ? 'text/plain' : 'application/octet-stream');
}

/** Whether a resource goes out as `text`: UTF-8 bodies of non-binary types (SEP-2640 "Reading"). */
export function pmSkillFileIsText(fileName: string, isUtf8: boolean): boolean {
  const dot = fileName.lastIndexOf('.');
  return isUtf8 && BINARY_TYPES[dot > 0 ? fileName.slice(dot + 1).toLowerCase() : ''] === undefined;
}
