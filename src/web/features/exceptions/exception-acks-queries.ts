import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ExceptionAck, ExceptionAcksAnswer, type ExceptionAckRequest } from '@/contract/exceptions-api';
import { apiGet, apiSend } from '../../data/api-client';

/** The team's acknowledgements and snoozes, kept on the server; refreshed with the loads. */
export const exceptionAckQueries = {
  all: () => ['exception-acks'] as const,
  list: (refreshSeconds: number) =>
    queryOptions({
      queryKey: exceptionAckQueries.all(),
      queryFn: ({ signal }) => apiGet('/api/exceptions/acks', ExceptionAcksAnswer, signal),
      refetchInterval: refreshSeconds * 1000,
      refetchIntervalInBackground: false,
      placeholderData: (previous) => previous,
    }),
};

/** The list with this load's ack of this kind replaced by the stored one (gone when cleared). */
function withAck(answer: ExceptionAcksAnswer | undefined, ack: ExceptionAck): ExceptionAcksAnswer {
  const others = (answer?.acks ?? []).filter((a) => a.load !== ack.load || a.kind !== ack.kind);
  return { acks: ack.state === 'cleared' ? others : [ack, ...others] };
}

/** Acknowledge, snooze or clear a load's exception; the page shows the stored action at once. */
export function useActOnException() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ExceptionAckRequest) => apiSend('PUT', '/api/exceptions/acks', input, ExceptionAck),
    onSuccess: (ack) => {
      client.setQueryData<ExceptionAcksAnswer>(exceptionAckQueries.all(), (answer) => withAck(answer, ack));
      void client.invalidateQueries({ queryKey: exceptionAckQueries.all() });
    },
  });
}
