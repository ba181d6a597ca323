import './groups.css';
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { useLocation } from 'wouter';
import { Card, H3, Tag, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import { onNotice } from '../../../lib/notify';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { groupsScreen } from './groupsConfig';
import { customersCount } from './count';
import { PeopleIcon, ShopIcon, StarIcon } from '@blueprintjs/icons';

const GroupsTree = graphql(`
  query CustomersGroupsTree {
    tree: CustomersGroups_GetCustomersGroupsTreeView { brandId brandName groups { id name isPrivatePointsProgram memberCount } }
  }
`);

/**
 * /groups — the tree (brands → groups with their number of customers; a group opens /groups/:id)
 * beside the list of the resource shape, where groups are created and renamed. The tree reads
 * itself again whenever the list saves (the shape's "Saved." notice of this screen).
 */
export default function GroupsPage() {
  const tree = useQuery(GroupsTree, { fetchPolicy: 'cache-and-network' });
  const [, navigate] = useLocation();
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  useEffect(() => onNotice((n) => { if (n.title === groupsScreen.title && n.intent === 'success') void tree.refetch(); }), [tree]);
  const nodes = useMemo<TreeNodeInfo<number>[]>(() => (tree.data?.tree ?? []).flatMap((b) => (b ? [{
    id: `brand-${b.brandId}`,
    label: b.brandName,
    icon: <ShopIcon />,
    isExpanded: !collapsed.has(b.brandId),
    nodeData: b.brandId,
    secondaryLabel: <Tag minimal round>{b.groups.length}</Tag>,
    childNodes: b.groups.flatMap((g) => (g ? [{
      id: g.id,
      label: g.name,
      icon: g.isPrivatePointsProgram ? <StarIcon /> : <PeopleIcon />,
      nodeData: g.id,
      secondaryLabel: <span className="groups-tree-count">{customersCount(g.memberCount)}</span>,
    }] : [])),
  }] : [])), [tree.data, collapsed]);
  const toggle = (brandId: number) => setCollapsed((s) => { const next = new Set(s); if (next.has(brandId)) next.delete(brandId); else next.add(brandId); return next; });
  return (
    <div className="groups-page">
      <Card className="groups-tree" data-testid="groups-tree">
        <H3>Brands and their groups</H3>
        {tree.error && <p role="alert">The tree did not load.</p>}
        {!tree.loading && !nodes.length && <p>No brands in your scope.</p>}
        <Tree
          contents={nodes}
          onNodeClick={(node) => (typeof node.id === 'number' ? navigate(`/groups/${node.id}`) : toggle(node.nodeData!))}
          onNodeExpand={(node) => toggle(node.nodeData!)}
          onNodeCollapse={(node) => toggle(node.nodeData!)}
        />
      </Card>
      <ResourceScreen config={groupsScreen} />
    </div>
  );
}
