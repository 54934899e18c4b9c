/** The simulator's demo partner credentials, used when PARTNER_ID / ACCOUNT_ID are not set. */
export const DEMO_PARTNER_ID = 4242;
export const DEMO_ACCOUNT_ID = 'U2FsdGVkX1-haulview-demo-account';
/** HS256 secret of the demo's webhook tokens, used when SIM_JWT_SECRET is not set. */
export const DEMO_JWT_SECRET = 'haulview-demo-secret-do-not-use-in-production';
