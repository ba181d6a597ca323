import './groups.css';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link, useParams } from 'wouter';
import { Alert, Button, Callout, FileInput, H2, InputGroup, Menu, MenuItem, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import { apiErrorOf, errorMessage, statusOf } from '../../../lib/errors';
import { NotYours } from '../../shell/NotYours';
import { notify } from '../../../lib/notify';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { BrandName } from '../../resources/configs/brandSettingsDictionaries';
import type { ResourceConfig } from '../../resources/types';
import { groupMembersScreen, preInvitationsScreen } from './groupsConfig';
import { customersCount } from './count';
import { AddIcon, PeopleIcon, RemoveIcon, SearchIcon, TickIcon } from '@blueprintjs/icons';

const Group = graphql(`query CustomersGroupById($id: Int!) { group: CustomersGroups_GetCustomersGroupById(Id: $id) { id brandId name discountPercent isPrivatePointsProgram memberCount } }`);
const FindCustomers = graphql(`
  query GroupFindCustomers($GroupId: Int!, $Search: String) {
    found: CustomersGroups_FindCustomersForGroup(GroupId: $GroupId, SkipCount: 0, MaxResultCount: 8, Search: $Search) { totalCount data { id fullName phoneNumber inGroup } }
  }
`);
const AddMembers = graphql(`mutation GroupAddMembers($input: AddCustomersToExistingGroupInput_Input!) { group: CustomersGroups_AddCustomersToExistingGroup(input: $input) { id memberCount } }`);
const RemoveMembers = graphql(`mutation GroupRemoveMembers($input: RemoveCustomersFromGroupInput_Input!) { group: CustomersGroups_RemoveCustomersFromGroup(input: $input) { id memberCount } }`);
const Upload = graphql(`mutation PreInvitationUpload($input: UploadPreInvitationListsInput_Input!) { result: PreInvitationLists_UploadPreInvitationLists(input: $input) { rows added alreadyListed joined } }`);

type Member = { id: number; name: string };
const nameOf = (c: Record<string, unknown>) => String(c.fullName || c.phoneNumber || 'this customer');

/**
 * /groups/:id — a group: its customers (add the group's brand's customers found by name or phone,
 * remove one after a confirmation naming them), and its pre-invitation list (one phone at a time
 * on the resource shape, or a CSV upload that is taken whole or not at all).
 */
export default function GroupPage() {
  const id = Number(useParams<{ id: string }>().id);
  const group = useQuery(Group, { variables: { id }, skip: !Number.isInteger(id), fetchPolicy: 'network-only' });
  // A change made outside a list (an add, an upload) shows by mounting the lists afresh.
  const [members, setMembers] = useState(0);
  const [invitations, setInvitations] = useState(0);
  const refresh = () => { setMembers((n) => n + 1); void group.refetch(); };
  const [remove, removing] = useMutation(RemoveMembers, { context: { silent: true } });
  // The member whose removal waits for the confirmation, and the list to read again after it.
  const [removal, setRemoval] = useState<(Member & { list: { refresh(): void } }) | null>(null);
  // The list's config must stay the same object across renders (it builds the list's machine).
  const membersConfig = useMemo<ResourceConfig>(() => ({
    ...groupMembersScreen,
    columns: [...groupMembersScreen.columns, {
      field: 'id', name: '', width: 110,
      render: (r, list) => (
        <Button small minimal intent="danger" text="Remove" aria-label={`Remove ${nameOf(r)}`}
          onClick={() => setRemoval({ id: Number(r.id), name: nameOf(r), list })} />
      ),
    }],
  }), []);
  const removeConfirmed = async () => {
    if (!removal) return;
    try {
      await remove({ variables: { input: { groupId: id, customerIds: [removal.id] } } });
      notify('success', 'Group', `${removal.name} was removed from the group.`);
      void group.refetch();
    } catch (err) {
      notify('danger', 'Error', errorMessage(err));
    }
    removal.list.refresh();
    setRemoval(null);
  };

  const g = group.data?.group;
  if (group.loading && !g) return <Spinner />;
  if (!g && (!Number.isInteger(id) || [403, 404].includes(statusOf(group.error) ?? 0))) return <NotYours what="group" back="/groups" backLabel="Back to groups" />;
  if (!g) return <NonIdealState icon={<PeopleIcon />} title="Group not found" description={group.error ? errorMessage(group.error) : undefined} action={<Link href="/groups">Back to groups</Link>} />;
  return (
    <div className="console-page group-page" data-testid="group-page">
      <div className="group-head">
        <Link href="/groups">Groups</Link> /
        <H2>{g.name}</H2>
        <Tag minimal><BrandName id={g.brandId} /></Tag>
        {g.isPrivatePointsProgram && <Tag minimal intent="primary">Private points program</Tag>}
        {!!g.discountPercent && <Tag minimal intent="success">{g.discountPercent} % discount</Tag>}
        <Tag round data-testid="group-member-count">{customersCount(g.memberCount)}</Tag>
      </div>
      <section aria-label="Customers">
        <ResourceScreen key={`members-${members}`} config={membersConfig} toolbar={<AddCustomers groupId={id} onAdded={refresh} />} />
      </section>
      <Alert isOpen={!!removal} intent="danger" icon={<RemoveIcon />} confirmButtonText="Remove" cancelButtonText="Cancel" loading={removing.loading}
        onConfirm={() => void removeConfirmed()} onCancel={() => setRemoval(null)}>
        <p data-testid="remove-confirmation">Remove {removal?.name} from the group {g.name}? They keep their account and balances; notifications to the group no longer reach them.</p>
      </Alert>
      <section aria-label="Pre-invitation list">
        <ResourceScreen key={`invitations-${invitations}`} config={preInvitationsScreen}
          toolbar={<UploadInvitations groupId={id} onUploaded={() => { setInvitations((n) => n + 1); refresh(); }} />} />
      </section>
    </div>
  );
}

/**
 * Finds one of the group's brand's customers (the only ones the group takes) by name or phone and
 * adds them; one already in the group is shown as such and cannot be added again.
 */
function AddCustomers({ groupId, onAdded }: { groupId: number; onAdded(): void }) {
  const [search, setSearch] = useState('');
  const found = useQuery(FindCustomers, { variables: { GroupId: groupId, Search: search.trim() }, skip: search.trim().length < 2, fetchPolicy: 'network-only' });
  const [add, adding] = useMutation(AddMembers, { context: { silent: true } });
  const pick = async (customer: { id: number; fullName: string; phoneNumber?: string | null }) => {
    try {
      await add({ variables: { input: { groupId, customerIds: [customer.id] } } });
      notify('success', 'Group', `${nameOf(customer)} is in the group.`);
      setSearch('');
      onAdded();
    } catch (err) {
      notify('danger', 'Error', errorMessage(err));
    }
  };
  const options = (found.data?.found?.data ?? []).flatMap((c) => (c ? [c] : []));
  return (
    <div className="group-add">
      <div>
        <InputGroup leftIcon={<SearchIcon />} placeholder="Add a customer: name or phone" value={search} aria-label="Add a customer"
          onChange={(e) => setSearch(e.target.value)} rightElement={adding.loading || found.loading ? <Spinner size={16} /> : undefined} />
        {search.trim().length >= 2 && !found.loading && (
          <Menu className="group-add-options" aria-label="Customers found">
            {options.map((c) => (c.inGroup
              ? <MenuItem key={c.id} icon={<TickIcon />} disabled text={`${c.fullName || '—'} · ${c.phoneNumber ?? ''}`} label="In the group" />
              : <MenuItem key={c.id} icon={<AddIcon />} text={`${c.fullName || '—'} · ${c.phoneNumber ?? ''}`} onClick={() => void pick(c)} />))}
            {!options.length && <MenuItem disabled text="No customer of this brand found." />}
            {(found.data?.found?.totalCount ?? 0) > options.length && <MenuItem disabled text={`${found.data!.found!.totalCount - options.length} more: type more of the name or phone.`} />}
          </Menu>
        )}
      </div>
    </div>
  );
}

/**
 * The CSV upload: the file is read in the browser and sent whole; a file with any bad row is
 * refused with its line numbers (the server's validation errors) and nothing is saved.
 */
function UploadInvitations({ groupId, onUploaded }: { groupId: number; onUploaded(): void }) {
  const [upload, state] = useMutation(Upload, { context: { silent: true } });
  const [problem, setProblem] = useState<{ message: string; lines: string[] } | null>(null);
  const [fileName, setFileName] = useState('');
  const send = async (file: File | undefined) => {
    if (!file) return;
    setFileName(file.name);
    setProblem(null);
    try {
      const res = await upload({ variables: { input: { groupId, content: await file.text(), fileName: file.name } } });
      const r = res.data?.result;
      if (r) notify('success', 'Pre-invitation list', `${r.added} ${r.added === 1 ? 'phone' : 'phones'} added, ${r.alreadyListed} already on the list, ${r.joined} registered customers joined.`);
      onUploaded();
    } catch (err) {
      setProblem({ message: apiErrorOf(err)?.abp?.message || errorMessage(err), lines: (apiErrorOf(err)?.abp?.validationErrors ?? []).map((v) => v.message) });
    }
  };
  return (
    <div className="invitation-upload" data-testid="invitation-upload">
      <FileInput
        text={fileName || 'Upload a CSV of phones…'} buttonText="Browse" disabled={state.loading}
        inputProps={{ accept: '.csv,text/csv,text/plain', 'aria-label': 'Upload a CSV of phones' }}
        onInputChange={(e) => { const input = e.target as HTMLInputElement; void send(input.files?.[0]); input.value = ''; }}
      />
      {state.loading && <Spinner size={16} aria-label="Uploading" />}
      {problem && (
        <Callout intent="danger" title="The file was not uploaded" role="alert" data-testid="upload-problem">
          <p>{problem.message}</p>
          {problem.lines.length > 1 && <ul className="invitation-upload-errors">{problem.lines.map((l) => <li key={l}>{l}</li>)}</ul>}
          {problem.lines.length === 1 && <p>{problem.lines[0]}</p>}
        </Callout>
      )}
    </div>
  );
}
