/** The simulator's demo partner credentials, used when PARTNER_ID / ACCOUNT_ID are not set. */
export const DEMO_PARTNER_ID = 4242;
export const DEMO_ACCOUNT_ID = 'U2FsdGVkX1-haulview-demo-account';
