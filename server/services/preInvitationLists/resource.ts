import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db, Tx } from '../../db/client';
import { customerGroups, preInvitations } from '../../db/schema';
import { uniqueViolation } from '../../db/uniqueViolation';
import { badRequest, notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { appendAudit } from '../../resources/audit';
import { defineResource } from '../../resources/resource';
import { phoneFromText } from '../../../domain/phone';
import { customersGroupResource } from '../customersGroups/resource';
import { MAX_UPLOAD_ROWS, parsePhoneCsv } from './csv';
import { joinInvitedGroups } from './join';

/**
 * Pre-invitation lists (SPEC.md 7 "Groups and pre-invitation"): each customers group has a list
 * of invited phones (entries keyed by phone, SPEC.md 3). An invited phone that registers joins
 * the group (./join.ts, called by the registration's transaction). One phone's list, add, change,
 * delete and history are the declaration's; uploading a CSV and asking whether a phone is listed
 * are written by hand on its helpers.
 */
export const PreInvitation = Obj('PreInvitationListEntry', {
  id: Type.Integer(),
  groupId: Type.Integer(),
  brandId: Type.Integer(),
  phoneNumber: Type.String(),
  /** The customer who registered with this phone and joined the group; null while unused. */
  joinedUserId: Nullable(Type.Integer()),
  joinedAt: Nullable(Type.String()),
  createdAt: Type.String(),
});
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const PhoneText = Type.String({ minLength: 1, maxLength: 40, description: 'E.164, or 8 local digits (Kuwait).' });

const invalid = (message: string, member: string) => badRequest(message, [{ message, members: [member] }]);

function phoneOf(text: string, member = 'phoneNumber'): string {
  const phone = phoneFromText(text);
  if (!phone) throw invalid(`"${text.trim().slice(0, 40)}" is not a valid phone number.`, member);
  return phone;
}

const ALREADY_LISTED = 'This phone number is already on the pre-invitation list of this group.';

/**
 * An entry is placed by its group (`scope.via`): the group must be in the caller's brands (404
 * otherwise), and the entry keeps the group's brand. The phone is kept normalised, once per group;
 * a used entry's phone stays. A registered customer with the phone joins the group in the same
 * transaction (./join.ts).
 */
export const preInvitationResource = defineResource({
  service: 'PreInvitationLists',
  label: 'Pre-invitation',
  table: preInvitations,
  item: PreInvitation,
  create: Obj('CreatePreInvitationListInput', { groupId: Id, phoneNumber: PhoneText }),
  update: Obj('UpdatePreInvitationListInput', { id: Id, phoneNumber: Type.Optional(PhoneText) }),
  scope: { level: 'brand', field: 'groupId', via: { table: customerGroups, column: customerGroups.brandId, label: 'Customers group', placeCopiedTo: 'brandId' } },
  can: { view: 'groups.manage', create: 'groups.manage', update: 'groups.manage', delete: 'groups.manage' },
  methods: { list: 'GetAllPreInvitationLists', create: 'CreatePreInvitationList', update: 'UpdatePreInvitationList', delete: 'DeletePreInvitationList?Id' },
  sortable: ['id', 'phoneNumber', 'createdAt', 'joinedAt'],
  defaultSorting: 'id desc',
  filters: { groupId: 'equals', brandId: 'equals', phoneNumber: 'contains' },
  toColumns: (body) => ({
    ...(body.groupId !== undefined && { groupId: body.groupId }),
    ...(body.phoneNumber !== undefined && { phoneNumber: phoneOf(String(body.phoneNumber)) }),
  }),
  async check(tx, next, before) {
    const phone = phoneOf(String(next.phoneNumber));
    if (phone === before?.phoneNumber) return;
    if (before && before.joinedUserId !== null) throw invalid('This invitation was used: the customer registered and joined the group, so its phone cannot change.', 'phoneNumber');
    const [listed] = await tx.select({ id: preInvitations.id }).from(preInvitations)
      .where(and(eq(preInvitations.groupId, Number(next.groupId)), eq(preInvitations.phoneNumber, phone)));
    if (listed) throw invalid(ALREADY_LISTED, 'phoneNumber');
  },
  async afterWrite(tx, { action, after }) {
    if (action === 'delete' || !after) return;
    await joinInvitedGroups(tx, [after.phoneNumber], 'staff');
    const [joined] = await tx.select().from(preInvitations).where(eq(preInvitations.id, after.id));
    return joined;
  },
  uniqueMessages: { pre_invitations_group_phone_uq: ALREADY_LISTED },
});

/** The group, in the caller's scope and locked against a concurrent delete; 404 otherwise. */
async function lockGroup(tx: Tx, caller: Caller, groupId: number) {
  const [group] = await tx.select({ id: customerGroups.id, brandId: customerGroups.brandId }).from(customerGroups)
    .where(and(eq(customerGroups.id, groupId), customersGroupResource.scopeOf(caller))).for('update');
  if (!group) throw notFound('Customers group');
  return group;
}

const UploadResult = Obj('PreInvitationUploadResult', {
  groupId: Type.Integer(),
  /** Data rows read (blank lines and the header left out). */
  rows: Type.Integer(),
  /** New phones put on the list. */
  added: Type.Integer(),
  /** Phones that were on the list already (kept once). */
  alreadyListed: Type.Integer(),
  /** Of the new phones, those of customers already registered, who joined the group at once. */
  joined: Type.Integer(),
});

/**
 * Puts the phones of a CSV on a group's list, all or nothing: a row that is no phone makes the
 * whole upload a 400 naming every bad line (validationErrors, member `content`), and nothing is
 * written. Phones already listed are kept once.
 */
async function upload(db: Db, caller: Caller, body: { groupId: number; content: string }) {
  const parsed = parsePhoneCsv(body.content);
  if (parsed.rows > MAX_UPLOAD_ROWS) throw invalid(`The file has ${parsed.rows} rows; at most ${MAX_UPLOAD_ROWS} can be uploaded at once.`, 'content');
  return db.transaction(async (tx) => {
    // The group is checked before the rows are judged, so a caller out of scope learns nothing about the file.
    const group = await lockGroup(tx, caller, body.groupId);
    if (parsed.bad.length) {
      const lines = parsed.bad.map((b) => b.line);
      const shown = lines.length > 20 ? `${lines.slice(0, 20).join(', ')} and ${lines.length - 20} more` : lines.join(', ');
      throw badRequest(
        `${parsed.bad.length === 1 ? 'Line' : 'Lines'} ${shown} ${parsed.bad.length === 1 ? 'is not a valid phone number' : 'are not valid phone numbers'}. Nothing was saved: correct the file and upload it again.`,
        parsed.bad.slice(0, 100).map((b) => ({ message: `Line ${b.line}: "${b.text}" ${b.problem}.`, members: ['content'] })),
      );
    }
    if (!parsed.phones.length) throw invalid('The file holds no phone numbers.', 'content');
    const listed = new Set((await tx.select({ phone: preInvitations.phoneNumber }).from(preInvitations)
      .where(and(eq(preInvitations.groupId, group.id), inArray(preInvitations.phoneNumber, parsed.phones)))).map((r) => r.phone));
    const fresh = parsed.phones.filter((p) => !listed.has(p));
    let joined = 0;
    if (fresh.length) {
      const rows = [];
      // Bounded statements: a bind-parameter list per statement stays well under PostgreSQL's limit.
      for (let i = 0; i < fresh.length; i += 1000) {
        rows.push(...await tx.insert(preInvitations)
          .values(fresh.slice(i, i + 1000).map((phoneNumber) => ({ groupId: group.id, brandId: group.brandId, phoneNumber }))).returning());
      }
      for (let i = 0; i < fresh.length; i += 1000) joined += await joinInvitedGroups(tx, fresh.slice(i, i + 1000), 'staff');
      const joinedRows = joined ? await tx.select().from(preInvitations).where(and(inArray(preInvitations.id, rows.map((r) => r.id)), sql`${preInvitations.joinedUserId} is not null`)) : [];
      const byId = new Map(joinedRows.map((r) => [r.id, r]));
      await appendAudit(tx, caller, rows.map((r) => ({
        action: 'create' as const, resource: preInvitationResource.service, rowId: r.id, scopeId: r.brandId,
        before: null, after: preInvitationResource.toItem(byId.get(r.id) ?? r) as Record<string, unknown>,
      })));
    }
    return { groupId: group.id, rows: parsed.rows, added: fresh.length, alreadyListed: parsed.phones.length - fresh.length, joined };
  }).catch((err) => {
    // Two uploads of the same phone at once: the loser's whole upload is refused, nothing half-written.
    if (uniqueViolation(err) !== null) throw invalid('Another upload added some of these phones at the same time. Please upload the file again.', 'content');
    throw err;
  });
}

export function registerPreInvitationLists(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'PreInvitationLists', [
    route({
      method: 'POST', name: 'UploadPreInvitationLists', access: 'groups.manage',
      summary: "Puts the phones of a CSV on a group's list; any bad row refuses the whole file, naming its lines.",
      body: Obj('UploadPreInvitationListsInput', {
        groupId: Id,
        content: Type.String({ maxLength: 1_000_000, description: 'The CSV text: one phone a row, optionally under a header (phone, mobile, number).' }),
        fileName: Type.Optional(Type.String({ maxLength: 255 })),
      }),
      result: UploadResult,
      handler: ({ body, caller, ctx }) => upload(ctx.db, caller, body),
    }),
    route({
      method: 'GET', name: 'GetIsPreInvitationListExist', access: 'groups.manage',
      summary: "Whether a phone is on a pre-invitation list in the caller's brands (of one group, when GroupId is given).",
      query: Obj('GetIsPreInvitationListExistQuery', { PhoneNumber: PhoneText, GroupId: Type.Optional(Id) }),
      result: Type.Boolean(),
      async handler({ query, caller, ctx }) {
        const phone = phoneOf(query.PhoneNumber, 'PhoneNumber');
        const [found] = await ctx.db.select({ id: preInvitations.id }).from(preInvitations)
          .where(and(eq(preInvitations.phoneNumber, phone), preInvitationResource.scopeOf(caller),
            query.GroupId === undefined ? undefined : eq(preInvitations.groupId, query.GroupId))).limit(1);
        return !!found;
      },
    }),
  ]);
}
