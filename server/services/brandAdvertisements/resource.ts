import { Type } from 'typebox';
import { and, asc, desc, eq, gt, lte, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { brandAdvertisements } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { sharedListFields } from '../../resources/list';
import { defineResource } from '../../resources/resource';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Title = Type.String({ minLength: 1, maxLength: 120 });
const Text = Type.String({ maxLength: 2000 });
/**
 * The advertisement's picture: an image the Files service stored (UploadBrandAdvertisementImage
 * answers its URL) or a bundled one. The name must end in an image type, so a link to a page or a
 * document is refused before it is saved.
 */
const ImageUrl = Type.String({
  maxLength: 500, pattern: '^(/(?!/)|https://)\\S+\\.(png|jpe?g|webp|gif|avif)$',
  description: 'An image URL, e.g. the url UploadBrandAdvertisementImage answers (png, jpg, webp, gif or avif).',
});
const DateTime = Type.String({ format: 'date-time', description: 'ISO date-time.' });

/** A brand's advertisement (SPEC.md 7 News). */
export const BrandAdvertisement = Obj('BrandAdvertisement', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  title: Type.String(),
  text: Type.String(),
  imageUrl: Type.String(),
  startDate: Type.String(),
  endDate: Type.String(),
  isShown: Type.Boolean(),
  createdAt: Type.String(),
});

/**
 * /news (SPEC.md 2.2, 7 News). Brand-scoped like the other brand settings; no delete: the legacy
 * calls have none, and hiding an advertisement (isShown false) takes it off the shop while its
 * history stays (docs/decisions.md "Engagement: news and statistics").
 */
export const brandAdvertisementResource = defineResource({
  service: 'BrandAdvertisements',
  table: brandAdvertisements,
  item: BrandAdvertisement,
  create: Type.Object({
    brandId: Id, title: Title, text: Type.Optional(Text), imageUrl: ImageUrl,
    startDate: DateTime, endDate: DateTime, isShown: Type.Optional(Type.Boolean()),
  }),
  update: Type.Object({
    id: Id, title: Type.Optional(Title), text: Type.Optional(Text), imageUrl: Type.Optional(ImageUrl),
    startDate: Type.Optional(DateTime), endDate: Type.Optional(DateTime), isShown: Type.Optional(Type.Boolean()),
  }),
  scope: { level: 'brand', field: 'brandId' },
  can: { view: 'news.manage', create: 'news.manage', update: 'news.manage', delete: 'news.manage' },
  methods: { list: 'GetAll', create: 'CreateBrandAdvertisement', update: 'UpdateBrandAdvertisement' },
  sortable: ['id', 'title', 'startDate', 'endDate', 'isShown', 'createdAt'],
  defaultSorting: 'startDate desc',
  filters: { brandId: 'equals', isShown: 'equals', title: 'contains', text: 'contains' },
  label: 'Advertisement',
  async check(_tx, next) {
    // Checked on the row as it will be, so an update that moves one date past the other is refused too.
    if (new Date(String(next.endDate)).getTime() <= new Date(String(next.startDate)).getTime()) {
      const message = 'The end date must come after the start date.';
      throw badRequest(message, [{ message, members: ['endDate'] }]);
    }
  },
});

const ListBody = Obj('BrandAdvertisementsListInput', {
  ...sharedListFields,
  id: Type.Optional(Id),
  brandId: Type.Optional(Id),
  isShown: Type.Optional(Type.Boolean()),
});

/** An advertisement as the shop shows it. */
export const CurrentBrandAdvertisement = Obj('CurrentBrandAdvertisement', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  title: Type.String(),
  text: Type.String(),
  imageUrl: Type.String(),
  startDate: Type.String(),
  endDate: Type.String(),
});

/** A brand's news as the shop's home shows it now: shown, and now within its dates; newest first. */
export const currentNewsWhere = (brandId: number, now: Date): SQL =>
  and(eq(brandAdvertisements.brandId, brandId), eq(brandAdvertisements.isShown, true),
    lte(brandAdvertisements.startDate, now), gt(brandAdvertisements.endDate, now))!;

/**
 * The legacy list (POST BrandAdvertisements/BrandAdvertisements, its query in the body) on the
 * resource's own list, and the shop's public read of a brand's current news.
 */
export function registerBrandAdvertisements(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'BrandAdvertisements', [
    route({
      method: 'POST', name: 'BrandAdvertisements', access: 'news.manage',
      summary: "Advertisement list (legacy POST form of GetAll): paged, in the caller's scope.",
      body: ListBody, result: Obj('BrandAdvertisementsPage', { data: Type.Array(BrandAdvertisement), totalCount: Type.Integer() }),
      handler: async ({ body, caller, ctx }) => (await brandAdvertisementResource.list(ctx.db, caller, body as Record<string, unknown>)) as never,
    }),
    route({
      method: 'GET', name: 'GetCurrentBrandAdvertisements', access: 'public',
      summary: "A brand's current news for the shop's home: shown, and now within its dates.",
      query: Obj('CurrentBrandAdvertisementsQuery', { brandId: Id }),
      result: Type.Array(CurrentBrandAdvertisement),
      handler: async ({ query, ctx }) => {
        const rows = await ctx.db.select().from(brandAdvertisements)
          .where(currentNewsWhere(query.brandId, new Date()))
          .orderBy(desc(brandAdvertisements.startDate), asc(brandAdvertisements.id)).limit(20);
        return rows.map((r) => ({
          id: r.id, brandId: r.brandId, title: r.title, text: r.text, imageUrl: r.imageUrl,
          startDate: r.startDate.toISOString(), endDate: r.endDate.toISOString(),
        }));
      },
    }),
  ]);
}
