/**
 * Staff users: the one place that creates, changes and deletes a staff user with its role and
 * place. AdminUserManagement, Brand (managers) and Branch (users) call it; every write goes through
 * the users resource's `audited`, so it shows in the History tab (docs/decisions.md "Administration: users").
 *
 * The rule, everywhere: a caller sees and changes only users whose role they may give
 * (domain/permissions.ts ASSIGNABLE_ROLES) inside their own place (server/resources/scope.ts);
 * customers, the guest and deleted (archived) users are never reached.
 */
import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import { assignableRoles, ROLE_PLACE, STAFF_ROLES, type PlaceLevel, type Role } from '../../../domain/permissions';
import { MIN_PASSWORD_LENGTH } from '../../../domain/constants';
import { normalisePhone } from '../../../domain/phone';
import { hashPassword } from '../../auth/password';
import { endAllSessions } from '../../auth/sessions';
import { forgetCallerHere } from '../../auth/callers';
import type { Db, Tx } from '../../db/client';
import { branches, brandManagers, brands, users } from '../../db/schema';
import { badRequest, forbidden, notFound, Obj, type ValidationError } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import type { Caller } from '../../http/context';
import { containsText, oneOf, orderByOf } from '../../resources/list';
import { pageOf } from '../../http/paging';
import { defineResource } from '../../resources/resource';
import { placeInScope, scopeWhere } from '../../resources/scope';

type UserRow = typeof users.$inferSelect;
/** A user row with the brands of a brand manager, when they were read. */
type UserWithBrands = UserRow & { brandIds?: number[] };
type Place = { companyId: number | null; brandId: number | null; branchId: number | null };

const INT_ID = { minimum: 1, maximum: 2147483647 };
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);
const NullableText = Type.Union([Type.String(), Type.Null()]);

/** A staff user as user management shows it; the password (hash) is never part of it. */
export const DashboardUser = Obj('DashboardUser', {
  id: Type.Integer(),
  userName: Type.String(),
  fullName: Type.String(),
  emailAddress: NullableText,
  phoneNumber: NullableText,
  role: oneOf(STAFF_ROLES),
  companyId: NullableInt,
  brandId: NullableInt,
  branchId: NullableInt,
  /** Every brand of a brand manager (their default `brandId` among them); given by the one-user and manager calls. */
  brandIds: Type.Optional(Type.Array(Type.Integer())),
  passwordChangedAt: NullableText,
  createdAt: Type.String(),
});
export type DashboardUserItem = Static<typeof DashboardUser>;

/** The fields a person types for a new staff user. */
export const userFields = {
  userName: Type.String({ minLength: 1, maxLength: 64, pattern: '^\\S+$', description: 'The login; no spaces.' }),
  fullName: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  emailAddress: Type.Optional(Nullable(Type.String({ maxLength: 256, pattern: '^$|^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', description: 'An e-mail address.' }))),
  phoneNumber: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  password: Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 128, description: `At least ${MIN_PASSWORD_LENGTH} characters; never returned.` }),
};
/** The same fields, each optional, for an update (a password sent is a new password). */
export const userPatchFields = Type.Partial(Type.Object(userFields)).properties;
export const placeFields = {
  companyId: Type.Optional(Nullable(Type.Integer(INT_ID))),
  brandId: Type.Optional(Nullable(Type.Integer(INT_ID))),
  branchId: Type.Optional(Nullable(Type.Integer(INT_ID))),
};
export const rolesAt = (level: PlaceLevel) => STAFF_ROLES.filter((r) => ROLE_PLACE[r] === level);

const toIso = (v: Date | string | null) => (v == null ? null : new Date(v).toISOString());
const toItem = (row: UserRow): DashboardUserItem => {
  const brandIds = (row as UserWithBrands).brandIds;
  return {
    id: row.id, userName: row.userName, fullName: row.fullName, emailAddress: row.emailAddress, phoneNumber: row.phoneNumber,
    role: row.role, companyId: row.companyId, brandId: row.brandId, branchId: row.branchId,
    ...(brandIds && { brandIds }),
    passwordChangedAt: toIso(row.passwordChangedAt), createdAt: toIso(row.createdAt)!,
  };
};

/**
 * The users a caller may see and change: staff (never a customer or the guest), not deleted, of a
 * role the caller may give, placed inside the caller's place (company, brands or branch).
 */
export function manageableUsers(caller: Caller): SQL | undefined {
  const roles = assignableRoles(caller?.role);
  if (!caller || !roles.length) return sql`false`;
  return and(
    eq(users.isActive, true),
    eq(users.isGuest, false),
    inArray(users.role, [...roles]),
    scopeWhere(caller, { companyId: users.companyId, brandId: users.brandId, branchId: users.branchId }),
  );
}

/** SPEC.md 7 AdminUserManagement GetDashboardUsersList: the staff users the caller manages. Writes are hand-written below. */
export const userResource = defineResource({
  service: 'AdminUserManagement',
  table: users,
  item: DashboardUser,
  create: Obj('StaffUserCreate', { ...userFields, role: oneOf(STAFF_ROLES), ...placeFields }),
  update: Obj('StaffUserUpdate', { id: Type.Integer(INT_ID), ...userPatchFields, role: Type.Optional(oneOf(STAFF_ROLES)), ...placeFields }),
  scope: null,
  visibleTo: manageableUsers,
  label: 'User',
  toItem,
  can: { view: 'users.manage', create: 'users.manage', update: 'users.manage', delete: 'users.manage' },
  methods: { list: 'GetDashboardUsersList' },
  sortable: ['id', 'userName', 'fullName', 'role', 'createdAt'],
  defaultSorting: 'userName asc',
  filters: { role: 'equals', companyId: 'equals', brandId: 'equals', branchId: 'equals', userName: 'contains', fullName: 'contains', emailAddress: 'contains' },
});

const fieldError = (message: string, field: string) => badRequest(message, [{ message, members: [field] }]);

/** 403 unless the caller may give `role`. */
function checkRole(caller: Caller, role: Role) {
  if (!assignableRoles(caller?.role).includes(role)) throw forbidden(`You may not give the role ${role}.`);
}

/**
 * The full place of a user of `role` from the ids sent: the id of the role's level is required and
 * must lie in the caller's scope (else 400 naming the field); the levels above are read from it, and
 * a different one sent alongside is a 400. ADMIN has no place.
 */
async function placeFor(db: Db | Tx, caller: Caller, role: Role, given: Partial<Place>): Promise<Place> {
  const level = ROLE_PLACE[role];
  if (level === 'none') return { companyId: null, brandId: null, branchId: null };
  const field = `${level}Id` as const;
  const id = given[field];
  if (id == null) throw fieldError(`A ${role} belongs to a ${level}: ${field} is required.`, field);
  if (!(await placeInScope(db, caller, level, id))) throw fieldError(`There is no ${level} ${id} you can manage.`, field);
  let place: Place;
  if (level === 'company') place = { companyId: id, brandId: null, branchId: null };
  else if (level === 'brand') {
    const [b] = await db.select({ companyId: brands.companyId }).from(brands).where(eq(brands.id, id));
    place = { companyId: b.companyId, brandId: id, branchId: null };
  } else {
    const [b] = await db.select({ brandId: branches.brandId, companyId: brands.companyId }).from(branches)
      .innerJoin(brands, eq(brands.id, branches.brandId)).where(eq(branches.id, id));
    place = { companyId: b.companyId, brandId: b.brandId, branchId: id };
  }
  for (const above of ['companyId', 'brandId'] as const) {
    if (given[above] != null && place[above] != null && given[above] !== place[above]) {
      throw fieldError(`${level[0].toUpperCase()}${level.slice(1)} ${id} is not in ${above.replace('Id', '')} ${given[above]}.`, above);
    }
  }
  return place;
}

type Identity = { userName?: string; emailAddress?: string | null; phoneNumber?: string | null };

/** Trimmed identity fields, the phone in E.164; 400 for a phone that is not one. */
function cleanIdentity<T extends Identity>(input: T): T {
  const out = { ...input };
  if (out.userName !== undefined) out.userName = out.userName.trim();
  if (out.emailAddress !== undefined) out.emailAddress = out.emailAddress?.trim() || null;
  if (out.phoneNumber !== undefined) {
    const text = out.phoneNumber?.trim();
    if (text) {
      const phone = normalisePhone(text);
      if (!phone) throw fieldError('Not a valid Phone Number', 'phoneNumber');
      out.phoneNumber = phone;
    } else out.phoneNumber = null;
  }
  return out;
}

/** 400 naming each login, e-mail or phone another user (customers included) already has. */
async function checkUnique(db: Db | Tx, input: Identity, exceptId: number | null) {
  const errors: ValidationError[] = [];
  const taken = async (field: keyof Identity, where: SQL, text: string) => {
    const [row] = await db.select({ id: users.id }).from(users).where(exceptId ? and(where, ne(users.id, exceptId)) : where).limit(1);
    if (row) errors.push({ message: text, members: [field] });
  };
  if (input.userName) await taken('userName', sql`lower(${users.userName}) = lower(${input.userName})`, `The user name ${input.userName} is already taken.`);
  if (input.emailAddress) await taken('emailAddress', sql`lower(${users.emailAddress}) = lower(${input.emailAddress})`, `The e-mail address ${input.emailAddress} is already taken.`);
  if (input.phoneNumber) await taken('phoneNumber', eq(users.phoneNumber, input.phoneNumber), `The phone number ${input.phoneNumber} is already taken.`);
  if (errors.length) throw badRequest(errors.map((e) => e.message).join(' '), errors);
}

/** The brands of a brand manager, lowest id first. */
const brandsOf = async (db: Db | Tx, userId: number) =>
  (await db.select({ brandId: brandManagers.brandId }).from(brandManagers).where(eq(brandManagers.userId, userId)).orderBy(asc(brandManagers.brandId)))
    .map((r) => r.brandId);

/** The row with `brandIds` when it is a brand manager's, as the one-user and manager calls answer it. */
export async function withBrands(db: Db | Tx, row: UserRow): Promise<UserWithBrands> {
  return row.role === 'BRAND_MANAGER' ? { ...row, brandIds: await brandsOf(db, row.id) } : row;
}

/** The user `id` the caller manages, locked for a write; 404 otherwise (existence is not revealed). */
async function lockManaged(tx: Tx, caller: Caller, id: number, level?: PlaceLevel): Promise<UserWithBrands> {
  const [row] = await tx.select().from(users).where(and(eq(users.id, id), manageableUsers(caller))).for('update');
  if (!row || (level && ROLE_PLACE[row.role as Role] !== level)) throw notFound('User');
  return withBrands(tx, row);
}

/** One user the caller manages, with a manager's brands; 404 otherwise. */
export async function readManagedUser(db: Db, caller: Caller, id: number): Promise<DashboardUserItem> {
  const [row] = await db.select().from(users).where(and(eq(users.id, id), manageableUsers(caller)));
  if (!row) throw notFound('User');
  return toItem(await withBrands(db, row));
}

export type NewStaffUser = { userName: string; fullName: string; emailAddress?: string | null; phoneNumber?: string | null; password: string; role: Role } & Partial<Place>;

/** Creates a staff user of a role the caller may give, in a place inside the caller's; a brand manager manages their brand. */
export async function createStaffUser(db: Db, caller: Caller, input: NewStaffUser): Promise<DashboardUserItem> {
  checkRole(caller, input.role);
  const clean = cleanIdentity(input);
  const place = await placeFor(db, caller, clean.role, clean);
  await checkUnique(db, clean, null);
  const passwordHash = await hashPassword(clean.password);
  const saved = await userResource.audited(db, caller, 'create', async (tx) => {
    const [after] = await tx.insert(users).values({
      userName: clean.userName, fullName: clean.fullName.trim(), emailAddress: clean.emailAddress ?? null, phoneNumber: clean.phoneNumber ?? null,
      passwordHash, passwordChangedAt: new Date(), role: clean.role, ...place,
    }).returning();
    if (clean.role === 'BRAND_MANAGER') await tx.insert(brandManagers).values({ userId: after.id, brandId: place.brandId! });
    return { before: null, after: await withBrands(tx, after) };
  });
  return toItem(saved!);
}

export type StaffUserPatch = Partial<Omit<NewStaffUser, 'role'>> & { role?: Role };

/**
 * Changes a user the caller manages: only the fields sent. A new role must be one the caller may
 * give; a role or place change needs the place of the (new) role and is refused on oneself. A brand
 * manager moved to another brand manages it too, and keeps only their brands of the new company.
 * `level` limits the call to users of that level (UpdateBranchUser reaches only branch users).
 */
export async function updateStaffUser(db: Db, caller: Caller, id: number, patch: StaffUserPatch, level?: PlaceLevel): Promise<DashboardUserItem> {
  const clean = cleanIdentity(patch);
  if (clean.role) checkRole(caller, clean.role);
  const passwordHash = clean.password !== undefined ? await hashPassword(clean.password) : undefined;
  const saved = await userResource.audited(db, caller, 'update', async (tx) => {
    const before = await lockManaged(tx, caller, id, level);
    const role = clean.role ?? (before.role as Role);
    const placeSent = (['companyId', 'brandId', 'branchId'] as const).some((f) => clean[f] !== undefined && clean[f] !== before[f]);
    const moves = role !== before.role || placeSent;
    if (moves && before.id === caller?.id) throw forbidden('You cannot change your own role or place.');
    // Within the same level the user keeps their place unless another is sent; the levels above follow it.
    const newLevel = ROLE_PLACE[role];
    const kept: Partial<Place> = newLevel !== 'none' && newLevel === ROLE_PLACE[before.role as Role] ? { [`${newLevel}Id`]: before[`${newLevel}Id`] } : {};
    const place = moves ? await placeFor(tx, caller, role, { ...kept, ...definedOf(clean) }) : null;
    await checkUnique(tx, clean, id);
    const values: Partial<typeof users.$inferInsert> = {
      ...(clean.userName !== undefined && { userName: clean.userName }),
      ...(clean.fullName !== undefined && { fullName: clean.fullName.trim() }),
      ...(clean.emailAddress !== undefined && { emailAddress: clean.emailAddress }),
      ...(clean.phoneNumber !== undefined && { phoneNumber: clean.phoneNumber }),
      ...(passwordHash && { passwordHash, passwordChangedAt: new Date() }),
      ...(moves && { role, ...place }),
    };
    const [row] = Object.keys(values).length ? await tx.update(users).set(values).where(eq(users.id, id)).returning() : [before];
    if (passwordHash) await endAllSessions(tx, id); // a new password ends every earlier session, the caller's own too when it is theirs
    if (moves) await keepManagedBrands(tx, row);
    if (moves) forgetCallerHere(id); // the new role and place: this process at once, the others at commit (migration 0055)
    return { before, after: await withBrands(tx, row) };
  });
  return toItem(saved!);
}

/** Only the place ids actually sent (a null clears a level above the role's, which placeFor fills again). */
const definedOf = (p: Partial<Place>): Partial<Place> =>
  Object.fromEntries(Object.entries({ companyId: p.companyId, brandId: p.brandId, branchId: p.branchId }).filter(([, v]) => v !== undefined));

/** After a role or place change: a brand manager manages their (new) default brand and only brands of their company; anyone else none. */
async function keepManagedBrands(tx: Tx, user: UserRow) {
  if (user.role !== 'BRAND_MANAGER') {
    await tx.delete(brandManagers).where(eq(brandManagers.userId, user.id));
    return;
  }
  await tx.delete(brandManagers).where(and(
    eq(brandManagers.userId, user.id),
    sql`${brandManagers.brandId} not in (select "id" from "brands" where "company_id" = ${user.companyId})`,
  ));
  await tx.insert(brandManagers).values({ userId: user.id, brandId: user.brandId! }).onConflictDoNothing();
}

/**
 * Deletes a user the caller manages: the user is archived (is_active false), so their token stops
 * working at once, while orders and history that name them stay whole; their user name, e-mail and
 * phone stay taken. Oneself cannot be deleted. `where` narrows which users the call reaches (a branch's).
 */
export async function deleteStaffUser(db: Db, caller: Caller, id: number, level?: PlaceLevel, where?: (u: UserWithBrands) => boolean): Promise<true> {
  await userResource.audited(db, caller, 'delete', async (tx) => {
    const before = await lockManaged(tx, caller, id, level);
    if (where && !where(before)) throw notFound('User');
    if (before.id === caller?.id) throw forbidden('You cannot delete your own user.');
    await tx.update(users).set({ isActive: false }).where(eq(users.id, id));
    await endAllSessions(tx, id); // refused already while archived; this keeps the old tokens dead should the row ever be active again
    await tx.delete(brandManagers).where(eq(brandManagers.userId, id));
    return { before, after: null };
  });
  return true;
}

/**
 * A brand manager the caller manages also manages `brandId`, a brand in the caller's scope and in
 * the manager's company (400 naming brandId otherwise). Adding a brand they already manage changes nothing.
 */
export async function addManagedBrand(db: Db, caller: Caller, userId: number, brandId: number): Promise<DashboardUserItem> {
  if (!(await placeInScope(db, caller, 'brand', brandId))) throw fieldError(`There is no brand ${brandId} you can manage.`, 'brandId');
  const saved = await userResource.audited(db, caller, 'update', async (tx) => {
    const before = await lockManaged(tx, caller, userId, 'brand');
    if (before.role !== 'BRAND_MANAGER') throw fieldError(`User ${userId} is not a brand manager.`, 'userId');
    const [brand] = await tx.select({ companyId: brands.companyId }).from(brands).where(eq(brands.id, brandId));
    if (brand.companyId !== before.companyId) throw fieldError(`Brand ${brandId} belongs to another company than this brand manager.`, 'brandId');
    await tx.insert(brandManagers).values({ userId, brandId }).onConflictDoNothing();
    forgetCallerHere(userId);
    return { before, after: await withBrands(tx, before) };
  });
  return toItem(saved!);
}

/**
 * A brand manager stops managing `brandId` (404 unless the caller manages them and they manage it).
 * Their default brand moves to their lowest remaining brand; with no brand left the user is deleted (archived).
 */
export async function removeManagedBrand(db: Db, caller: Caller, userId: number, brandId: number): Promise<true> {
  const manages = (u: UserWithBrands) => u.role === 'BRAND_MANAGER' && !!u.brandIds?.includes(brandId);
  const [found] = await db.select().from(users).where(and(eq(users.id, userId), manageableUsers(caller)));
  const current = found && (await withBrands(db, found));
  if (!current || !manages(current)) throw notFound('Brand manager');
  if (current.brandIds!.length === 1) return deleteStaffUser(db, caller, userId, 'brand', manages);
  await userResource.audited(db, caller, 'update', async (tx) => {
    const before = await lockManaged(tx, caller, userId, 'brand');
    if (!manages(before)) throw notFound('Brand manager');
    await tx.delete(brandManagers).where(and(eq(brandManagers.userId, userId), eq(brandManagers.brandId, brandId)));
    const left = before.brandIds!.filter((b) => b !== brandId);
    const [row] = before.brandId === brandId
      ? await tx.update(users).set({ brandId: left[0] }).where(eq(users.id, userId)).returning()
      : [before];
    forgetCallerHere(userId);
    return { before, after: await withBrands(tx, row) };
  });
  return true;
}

const MANAGER_SORTING = { id: users.id, userName: users.userName, fullName: users.fullName, createdAt: users.createdAt };

/**
 * Brand managers of a brand or a company that the caller manages, with their brands: a page as
 * the shape's lists answer it (the shared list fields; `Search` over user name, full name and e-mail).
 */
export async function brandManagersWhere(db: Db, caller: Caller, where: SQL, query: { SkipCount: number; MaxResultCount: number; Sorting?: string; Search?: string; id?: number }) {
  const orderBy = orderByOf(query.Sorting, MANAGER_SORTING, 'userName asc', users.id);
  const search = query.Search?.trim();
  const filter = and(
    manageableUsers(caller), eq(users.role, 'BRAND_MANAGER'), where,
    query.id !== undefined ? eq(users.id, query.id) : undefined,
    search ? sql`(${containsText(users.userName, search)} or ${containsText(users.fullName, search)} or ${containsText(users.emailAddress, search)})` : undefined,
  );
  const page = pageOf(query);
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(users).where(filter).orderBy(...orderBy).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(filter),
  ]);
  return { data: await Promise.all(rows.map(async (r) => toItem(await withBrands(db, r)))), totalCount: Number(n) };
}

/** Users who manage `brandId`. */
export const managesBrand = (brandId: number) =>
  sql`${users.id} in (select ${brandManagers.userId} from ${brandManagers} where ${brandManagers.brandId} = ${brandId})`;
