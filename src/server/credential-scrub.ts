/**
 * Hides the partner's credentials where the service quotes them back: in its messages, the bodies
 * the proxy relays and a load's undocumented fields, which are kept and served as they came. The
 * account id is also found URL-encoded (a base64-like id quoted from a query string).
 */
export interface CredentialScrub {
  text(text: string): string;
  /** A JSON value with every quoted credential hidden; the value itself when it quotes none. */
  value<T>(value: T): T;
}

const ACCOUNT_ID_SHOWN = '[account id]';
const PARTNER_ID_SHOWN = '[partner id]';

export function credentialScrub(credentials: {
  partnerId: number | string;
  accountId: string;
}): CredentialScrub {
  const { accountId } = credentials;
  const partnerId = String(credentials.partnerId);
  const encoded = encodeURIComponent(accountId);
  const accountForms = [
    ...new Set([accountId, encoded, encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())]),
  ].filter((form) => form.length > 0);
  const escaped = partnerId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Digits around it make another number, which is not the partner id.
  const partnerPattern = partnerId === '' ? undefined : new RegExp(`(?<![0-9])${escaped}(?![0-9])`, 'g');
  const partnerNumber = /^\d{1,15}$/.test(partnerId) ? Number(partnerId) : Number.NaN;

  const text = (s: string): string => {
    let out = s;
    for (const form of accountForms) if (out.includes(form)) out = out.split(form).join(ACCOUNT_ID_SHOWN);
    // Every string of every load's undocumented fields comes here: the pattern only where it may match.
    return partnerPattern && out.includes(partnerId) ? out.replace(partnerPattern, PARTNER_ID_SHOWN) : out;
  };

  const value = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (typeof v === 'number') return v === partnerNumber ? PARTNER_ID_SHOWN : v;
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        const hidden = value(item);
        if (hidden !== item) (out ??= [...v])[i] = hidden;
      }
      return out ?? v;
    }
    if (v !== null && typeof v === 'object') {
      let out: Record<string, unknown> | undefined;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        const field = (v as Record<string, unknown>)[key];
        const hidden = value(field);
        // Defined, not assigned: a key named __proto__ stays a field.
        if (hidden !== field)
          Object.defineProperty((out ??= { ...v }), key, {
            value: hidden,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      return out ?? v;
    }
    return v;
  };

  return { text, value: value as <T>(v: T) => T };
}
