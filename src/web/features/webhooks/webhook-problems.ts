import { WebhookRequestError, type WebhookErrorItem, type WebhookFailure } from './webhook-api';

/** The form's fields, in the order a blocked submit looks for the first invalid one. */
export const FORM_FIELDS = ['eventType', 'clientUrl', 'token'] as const;
export type FormField = (typeof FORM_FIELDS)[number];

/** Fields the service's 7.2 `params.field` may name. */
const SERVICE_FIELDS: readonly FormField[] = ['eventType', 'clientUrl'];

export interface Problem {
  message: string;
  /** The 7.2 keyword (`enum`, or any other the service invents). */
  keyword?: string;
  /** The field the service named, when it is not one of the form's. */
  field?: string;
  allowedValues?: string[];
}

/** What the page shows for one failed attempt. */
export interface FailureView {
  /** Headline above the form; none when everything fits under the fields. */
  title?: string;
  /** Problems above the form (not tied to a field). */
  problems: readonly Problem[];
  /** Problems under the field they belong to. */
  fieldProblems: Partial<Record<FormField, readonly Problem[]>>;
  /** Asking again may help (no answer, or the server failed): a Retry button is offered. */
  retryable: boolean;
  note?: string;
  /** Where focus goes once the failure is shown. */
  focus: FormField | 'summary' | 'none';
  /**
   * The service's own lines when the friendly message already says it all ("jwt expired", "clientUrl:
   * … conflict"): kept behind a "Details" disclosure, under `detailsField` or else in the summary.
   */
  details?: readonly Problem[];
  detailsField?: FormField;
  /** A 409: the webhook exists; the page points to it in the list of those created here. */
  duplicate?: boolean;
}

const MAY_EXIST_NOTE =
  'If the webhook was created before this failure, trying again will answer that it already exists.';

/** Turns any error of the create mutation into what the page shows. */
export function describeFailure(error: unknown): FailureView {
  if (!(error instanceof WebhookRequestError)) {
    return {
      title: 'Something went wrong in this page while creating the webhook. Try again.',
      problems: [],
      fieldProblems: {},
      retryable: true,
      focus: 'none',
    };
  }
  return describe(error.failure);
}

function describe(failure: WebhookFailure): FailureView {
  const base = { problems: [], fieldProblems: {}, retryable: false } as const;
  switch (failure.kind) {
    case 'network':
      return {
        ...base,
        title: 'Haulview’s server cannot be reached. Check your connection and that it is running.',
        retryable: true,
        note: MAY_EXIST_NOTE,
        focus: 'none',
      };
    case 'timeout':
      return {
        ...base,
        title: `No answer within ${Math.round(failure.afterMs / 1000)} s.`,
        retryable: true,
        note: MAY_EXIST_NOTE,
        focus: 'none',
      };
    case 'unexpected':
      return {
        ...base,
        title: `Unexpected answer from Haulview’s server (HTTP ${failure.status}): ${failure.reason}.`,
        retryable: failure.status >= 500,
        note:
          failure.status >= 500
            ? MAY_EXIST_NOTE
            : failure.status < 300
              ? 'The service may have created the webhook all the same; it is not in this browser’s list.'
              : undefined,
        focus: 'none',
      };
    case 'proxy':
      return describeProxy(failure);
    case 'rejected':
      return describeRejected(failure.status, failure.errors);
  }
}

function describeProxy(f: Extract<WebhookFailure, { kind: 'proxy' }>): FailureView {
  const base = { problems: [], fieldProblems: {}, retryable: false, focus: 'none' } as const;
  if (f.code === 'upstream_unreachable') {
    return {
      ...base,
      title: 'The webhook service cannot be reached right now.',
      retryable: true,
      note: MAY_EXIST_NOTE,
    };
  }
  if (f.code === 'upstream_timeout' || f.status === 504) {
    return {
      ...base,
      title: 'The webhook service did not answer in time.',
      retryable: true,
      note: MAY_EXIST_NOTE,
    };
  }
  if (f.status === 429) {
    return {
      ...base,
      title: `The webhook service asks us to slow down${f.retryAfter ? `; try again in ${f.retryAfter} s` : ''}.`,
      retryable: true,
    };
  }
  if (f.status >= 500) {
    return {
      ...base,
      title: `Haulview’s server could not complete the request (HTTP ${f.status}): ${f.message}`,
      retryable: true,
      note: MAY_EXIST_NOTE,
    };
  }
  // The proxy's own validation names fields by path; put those under their field.
  const fieldProblems: Partial<Record<FormField, Problem[]>> = {};
  if (Array.isArray(f.details)) {
    for (const d of f.details as unknown[]) {
      if (!d || typeof d !== 'object') continue;
      const { path, message } = d as { path?: unknown; message?: unknown };
      const field = typeof path === 'string' ? asServiceField(path) : undefined;
      if (field && typeof message === 'string') (fieldProblems[field] ??= []).push({ message });
    }
  }
  const firstField = SERVICE_FIELDS.find((field) => fieldProblems[field]);
  return {
    ...base,
    title: `Haulview’s server refused the request (HTTP ${f.status}): ${f.message}`,
    fieldProblems,
    focus: firstField ?? 'summary',
  };
}

function describeRejected(status: number, errors: WebhookErrorItem[]): FailureView {
  const problems = errors.map(toProblem);
  if (status === 401) {
    // The only field a 401 can be about is the token: the message stands there, the service's
    // own words behind "Details".
    return {
      problems: [],
      fieldProblems: { token: [{ message: 'The token is invalid or expired' }] },
      retryable: false,
      focus: 'token',
      details: problems.filter((p) => p.message !== 'The token is invalid or expired'),
      detailsField: 'token',
    };
  }
  if (status === 409) {
    return {
      title: 'A webhook for this event type and URL already exists',
      problems: [],
      fieldProblems: {},
      retryable: false,
      note: 'Nothing new was created. Use another address, or keep the existing webhook.',
      focus: 'summary',
      details: problems,
      duplicate: true,
    };
  }
  const fieldProblems: Partial<Record<FormField, Problem[]>> = {};
  const above: Problem[] = [];
  for (const p of problems) {
    const field = p.field === undefined ? undefined : asServiceField(p.field);
    if (field && (status === 400 || status === 422)) {
      (fieldProblems[field] ??= []).push({ ...p, field: undefined });
    } else {
      above.push(p);
    }
  }
  const firstField = SERVICE_FIELDS.find((field) => fieldProblems[field]);
  const title =
    status === 422
      ? 'The webhook service did not accept these values (HTTP 422).'
      : status === 400
        ? 'The webhook service could not read the request (HTTP 400).'
        : `The webhook service refused the request (HTTP ${status}).`;
  return {
    title,
    problems: above,
    fieldProblems,
    retryable: status >= 500,
    note: status >= 500 ? MAY_EXIST_NOTE : undefined,
    focus: above.length === 0 && firstField ? firstField : 'summary',
  };
}

function toProblem(entry: WebhookErrorItem): Problem {
  const keyword = entry.keyword || undefined;
  const allowed = entry.params?.allowedValues?.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return {
    message:
      entry.message || (keyword ? `Breaks the service’s “${keyword}” rule` : 'Rejected by the service'),
    keyword,
    field: entry.params?.field || undefined,
    allowedValues: allowed && allowed.length > 0 ? allowed : undefined,
  };
}

/** `clientUrl`, `body.clientUrl`, `/clientUrl` all name the form's client URL. */
function asServiceField(name: string): FormField | undefined {
  const last = name.split(/[./]/).pop() ?? '';
  return SERVICE_FIELDS.find((f) => f === last);
}
