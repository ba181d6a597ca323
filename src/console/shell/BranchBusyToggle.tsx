import { useMutation, useQuery } from '@apollo/client/react';
import { Switch } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { notify } from '../../lib/notify';

const BranchIsBusy = graphql(`
  query BranchIsBusy { isBusy: Branch_GetIsbusy }
`);

const SetBranchBusy = graphql(`
  mutation SetBranchBusy($isBusy: Boolean!) {
    isBusy: Branch_UpdateIsbusy(input: { isBusy: $isBusy })
  }
`);

/**
 * The branch busy flag (SPEC.md 4: "The branch busy flag can be set"), for branch users: a busy
 * branch takes no new orders in the shop. Shows the server's value; a failed change is reported
 * by the error link and the switch stays where the server is.
 */
export function BranchBusyToggle() {
  const { data } = useQuery(BranchIsBusy, { fetchPolicy: 'cache-and-network' });
  const [setBusy, { loading }] = useMutation(SetBranchBusy, {
    update(cache, result) {
      if (typeof result.data?.isBusy === 'boolean') cache.writeQuery({ query: BranchIsBusy, data: { isBusy: result.data.isBusy } });
    },
  });
  const isBusy = data?.isBusy ?? false;
  return (
    <Switch
      className="console-busy-toggle"
      checked={isBusy}
      disabled={loading || data === undefined}
      label="Busy"
      innerLabel="no"
      innerLabelChecked="yes"
      alignIndicator="end"
      aria-label="Branch busy"
      onChange={async (e) => {
        const next = e.currentTarget.checked;
        const res = await setBusy({ variables: { isBusy: next } }).catch(() => null);
        if (res?.data?.isBusy === next) {
          notify(next ? 'warning' : 'success', 'Branch', next ? 'The branch is busy: the shop takes no new orders.' : 'The branch takes orders again.');
        }
      }}
    />
  );
}
