/**
 * Field names that only ever hold a secret: passwords, tokens, keys, signing secrets, the
 * headers carrying them. Their values are replaced wherever they appear at the top of a line's
 * fields or one level down (`{request: {password}}`), and in any `headers` object.
 */
const SECRET_FIELDS = [
  'password',
  'new_password',
  'current_password',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'secret',
  'signing_secret',
  'api_key',
  'apiKey',
  'authorization',
  'cookie',
] as const;

const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key'] as const;

/** pino's redaction paths (compiled once per logger). */
export const REDACTED_PATHS: readonly string[] = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  ...SECRET_HEADERS.map((header) => `headers["${header}"]`),
  ...SECRET_HEADERS.map((header) => `*.headers["${header}"]`),
];
