/**
 * The door of auth: its routes, and what other folders use for authentication and rights.
 * Files of this folder import each other directly, never through this file.
 */

export { generateApiKey, hashApiKey } from './api-key-format';
export { isSuperAdmin, requireMembershipChange, requireSuperAdmin } from './hierarchy';
export { createTokenSigner, generateSigningKeys, type TokenSigner } from './jwt';
export { generatePassword, hashPassword } from './passwords';
export {
  clearRefreshCookie,
  readRefreshCookie,
  setRefreshCookie,
} from './refresh-cookie';
export { isAdmin, requireRight, scopesOutsideModules } from './rights';
export { registerAuthRoutes } from './routes';
export { secure, securityMiddleware } from './secure';
export { issueTokens, revokeUserSessions, type TokenPair } from './sessions';
export { SSO_START_PATH, ssoStartUrl } from './sso-policy';
