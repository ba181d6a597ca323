import './resources.css';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useParams } from 'wouter';
import { useApolloClient } from '@apollo/client/react';
import { useActorRef, useSelector } from '@xstate/react';
import { Alert, Button, Callout, H2, Intent, Spinner } from '@blueprintjs/core';
import { PlusIcon, TrashIcon } from '@blueprintjs/icons';
import type { Sorting, Values } from '../../../machines/resourceMachine';
import {
  selectDelete, selectFilter, selectListError, selectListLoading, selectPaging, selectRows, selectSearch, selectSorting,
} from '../../../machines/resourceSelectors';
import { provideResource } from './provideResource';
import { provideAddress, urlPrefixOf, viewFromSearch, viewShapeOf } from './resourceUrl';
import { ResourceList } from './ResourceList';
import { ResourceToolbar } from './ResourceToolbar';
import { ResourceForm } from './ResourceForm';
import { ParentName } from './ParentName';
import type { AnyResourceConfig } from './types';

const samePaging = (a: { skip: number; take: number; totalCount: number }, b: typeof a) => a.skip === b.skip && a.take === b.take && a.totalCount === b.totalCount;

/**
 * One admin screen from its config: the resource machine bound to the gateway, the toolbar
 * (search, filters, pager, "New"), the Table2 list, the edit form and the delete confirmation.
 * The route's fixed filter (e.g. the brand of /brands/taxes/7) goes with every call, and the place
 * it names is shown under the title (config.parent). The list's search, filters, sorting and page
 * are kept in the address (./resourceUrl.ts): plain keys for the route's own list (`urlKey=""`),
 * else prefixed by the list's noun, so lists sharing a page keep theirs apart.
 */
export function ResourceScreen(props: { config: AnyResourceConfig; toolbar?: ReactNode; urlKey?: string }) {
  const params = useParams<Record<string, string | undefined>>();
  const fixed = useMemo(() => props.config.fixedFilter?.(params) ?? {}, [props.config, params]);
  // Another place on the same route (Back from /brands/taxes/8 to /7) is another list: its own machine.
  return <PlaceScreen key={JSON.stringify(fixed)} {...props} fixed={fixed} params={params} />;
}

function PlaceScreen({ config, toolbar, urlKey, fixed, params }: {
  config: AnyResourceConfig; toolbar?: ReactNode; urlKey?: string; fixed: Values; params: Record<string, string | undefined>;
}) {
  const client = useApolloClient();
  const shape = useMemo(() => viewShapeOf(config, urlKey ?? urlPrefixOf(config.noun)), [config, urlKey]);
  const machine = useMemo(() => provideAddress(provideResource(client, config), shape), [client, config, shape]);
  // The view starts from the address (a reload, a link, Back to this page); the machine writes it back.
  const [view] = useState(() => viewFromSearch(window.location.search, shape));
  const actor = useActorRef(machine, {
    input: { fields: config.fields ?? [], defaults: config.defaults, fixed, sorting: config.defaultSorting ?? null, view, confirmSave: !!config.confirmSave },
  });
  const rows = useSelector(actor, selectRows);
  const paging = useSelector(actor, selectPaging, samePaging);
  const sorting = useSelector(actor, selectSorting);
  const filter = useSelector(actor, selectFilter);
  const search = useSelector(actor, selectSearch);
  const loading = useSelector(actor, selectListLoading);
  const error = useSelector(actor, selectListError);
  const del = useSelector(actor, selectDelete, (a, b) => a.open === b.open && a.deleting === b.deleting && a.error === b.error);

  const onSort = useCallback((s: Sorting | null) => actor.send({ type: 'resource.sort', sorting: s }), [actor]);
  const onEdit = useCallback((id: number) => actor.send({ type: 'resource.edit', id }), [actor]);
  const onDelete = useCallback((id: number) => actor.send({ type: 'resource.delete', id }), [actor]);
  const onRefresh = useCallback(() => actor.send({ type: 'resource.refresh' }), [actor]);
  useOpenOnEntry(actor, config, params);
  const editable = !!(config.fields && config.operations.update);
  const parentId = config.parent && fixed[config.parent.field];

  return (
    <div className="console-page resource-screen" data-resource={config.noun}>
      <div className="resource-head">
        <H2>{config.title}</H2>
        {loading && <Spinner size={16} aria-label="Loading" />}
        {config.fields && config.operations.create && (
          <Button intent={Intent.PRIMARY} icon={<PlusIcon />} text={`New ${config.noun}`} onClick={() => actor.send({ type: 'resource.create' })} />
        )}
        {config.parent && typeof parentId === 'number' && parentId > 0 && <ParentName level={config.parent.level} id={parentId} />}
      </div>
      {toolbar}
      <ResourceToolbar
        config={config}
        search={search}
        filter={filter}
        paging={paging}
        onSearch={(text) => actor.send({ type: 'resource.search', search: text })}
        onFilter={(f: Values) => actor.send({ type: 'resource.filter', filter: f })}
        onPage={(skip) => actor.send({ type: 'resource.page', skip })}
        onPageSize={(take) => actor.send({ type: 'resource.pageSize', take })}
        onRefresh={() => actor.send({ type: 'resource.refresh' })}
      />
      {error && <Callout intent="danger" title="The list did not load.">{error}</Callout>}
      <ResourceList
        config={config}
        rows={rows}
        sorting={sorting}
        loading={loading}
        onSort={onSort}
        onEdit={editable ? onEdit : undefined}
        onDelete={config.operations.delete ? onDelete : undefined}
        onRefresh={onRefresh}
      />
      {config.fields && <ResourceForm actor={actor} config={config} />}
      <Alert
        isOpen={del.open}
        intent={Intent.DANGER}
        icon={<TrashIcon />}
        cancelButtonText="Cancel"
        confirmButtonText="Delete"
        loading={del.deleting}
        onCancel={() => actor.send({ type: 'resource.cancel' })}
        onConfirm={() => actor.send({ type: 'resource.confirmDelete' })}
      >
        <p>Delete this {config.noun}? This cannot be undone.</p>
        {del.error && <Callout intent="danger" role="alert">{del.error}</Callout>}
      </Alert>
    </div>
  );
}

/** A route that opens the form (config.openOnEntry) opens it once, and leaves for `closeTo` when it closes. */
function useOpenOnEntry(actor: ReturnType<typeof useActorRef<ReturnType<typeof provideResource>>>, config: AnyResourceConfig, params: Record<string, string | undefined>) {
  const [, navigate] = useLocation();
  const formOpen = useSelector(actor, (s) => s.matches({ panel: 'edit' }));
  const opened = useRef<'no' | 'asked' | 'open'>('no');
  useEffect(() => {
    const entry = config.openOnEntry?.(params);
    if (!entry || opened.current !== 'no') return;
    opened.current = 'asked';
    actor.send('create' in entry ? { type: 'resource.create' } : { type: 'resource.edit', id: entry.edit });
  }, [actor, config, params]);
  useEffect(() => {
    if (formOpen && opened.current === 'asked') opened.current = 'open';
    else if (!formOpen && opened.current === 'open' && config.closeTo) navigate(config.closeTo);
  }, [formOpen, config.closeTo, navigate]);
}
