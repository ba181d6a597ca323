import { Type } from 'typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { brands, companies } from '../../db/schema';
import { ApiError, badRequest, notFound, Obj } from '../../http/envelope';
import { route, service, type Access } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { placeInScope, scopeWhere } from '../../resources/scope';
import { IMAGE_RULES, processImage, storeImage, tooLarge, type UploadedImage } from './images';
import { releaseImage } from './references';
import { registerUploadsServing } from './serve';

export const UploadedImageResult = Obj('UploadedImage', {
  url: Type.String({ description: 'The stored image (metadata stripped). This is the value a row keeps, e.g. logoUrl.' }),
  thumbnailUrl: Type.String({ description: 'Its list copy: WebP, at most 320×320.' }),
  key: Type.String({ description: 'The content address of the image in the storage.' }),
});

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const CompanyIdQuery = Obj('FilesCompanyIdQuery', { companyId: Id });
const BrandIdQuery = Obj('FilesBrandIdQuery', { brandId: Id });

/**
 * Reads the one image of a multipart/form-data upload (the legacy form field `file`; the first
 * file part is taken whatever its name). The stream is read only here, after the caller was
 * authorised, and never beyond IMAGE_RULES.maxBytes.
 */
async function readUpload(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw badRequest('Send the image as multipart/form-data in the form field "file".');
  try {
    const part = await req.file({ limits: { fileSize: IMAGE_RULES.maxBytes, files: 1, fields: 20, fieldSize: 4096, parts: 21 } });
    if (!part) throw badRequest('No image was sent: put it in the form field "file".');
    const bytes = await part.toBuffer();
    if (bytes.length === 0) throw badRequest('The file is empty.');
    return bytes;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const e = err as { code?: string; statusCode?: number; message?: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) throw new ApiError(e.statusCode, e.message ?? 'The upload was refused.');
    // busboy's complaints (no boundary, a body cut short) are about the request, never a server fault.
    throw badRequest(`The upload is not a readable multipart/form-data body${e.message ? `: ${e.message}` : '.'}`);
  }
}

/** Reads, checks, strips and stores an upload; answers where it lives. */
async function upload(ctx: AppContext, req: FastifyRequest): Promise<UploadedImage> {
  return storeImage(ctx.db, ctx.storage, await processImage(await readUpload(req)));
}

type BannerOwner = {
  what: 'Company' | 'Brand';
  level: 'company' | 'brand';
  table: typeof companies | typeof brands;
  scope: (caller: Caller) => ReturnType<typeof scopeWhere>;
};
const COMPANY: BannerOwner = { what: 'Company', level: 'company', table: companies, scope: (caller) => scopeWhere(caller, { companyId: companies.id }) };
const BRAND: BannerOwner = { what: 'Brand', level: 'brand', table: brands, scope: (caller) => scopeWhere(caller, { brandId: brands.id }) };

/**
 * Sets (or clears, with null) the banner of a company or brand in the caller's scope and answers
 * the banner it replaced, or `undefined` when the row is not there for this caller (404: an
 * unknown id and one outside the scope read alike).
 */
async function replaceBanner(ctx: AppContext, caller: Caller, owner: BannerOwner, id: number, bannerUrl: string | null) {
  const { table } = owner;
  return ctx.db.transaction(async (tx) => {
    const where = and(eq(table.id, id), owner.scope(caller));
    const [row] = await tx.select({ bannerUrl: table.bannerUrl }).from(table).where(where).for('update');
    if (!row) return undefined;
    await tx.update(table).set({ bannerUrl }).where(where);
    return row.bannerUrl;
  });
}

/** The ...ForExisting... calls: checks the row first (nothing is read or stored for a row out of reach), then uploads and sets the banner. */
async function uploadBannerFor(ctx: AppContext, caller: Caller, req: FastifyRequest, owner: BannerOwner, id: number): Promise<UploadedImage> {
  if (!(await placeInScope(ctx.db, caller, owner.level, id))) throw notFound(owner.what);
  const image = await upload(ctx, req);
  let previous: string | null | undefined;
  try {
    previous = await replaceBanner(ctx, caller, owner, id, image.url);
  } catch (err) {
    await releaseImage(ctx.db, ctx.storage, image.url);
    throw err;
  }
  if (previous === undefined) {
    // The row went away while the image was being processed.
    await releaseImage(ctx.db, ctx.storage, image.url);
    throw notFound(owner.what);
  }
  if (previous !== image.url) await releaseImage(ctx.db, ctx.storage, previous);
  return image;
}

async function deleteBannerOf(ctx: AppContext, caller: Caller, owner: BannerOwner, id: number): Promise<true> {
  const previous = await replaceBanner(ctx, caller, owner, id, null);
  if (previous === undefined) throw notFound(owner.what);
  await releaseImage(ctx.db, ctx.storage, previous);
  return true;
}

/** A call that only stores an image and answers its URL (the create or edit form then sends the URL). */
const plainUpload = (name: string, access: Access, summary: string) => route({
  method: 'POST', name, access, summary, result: UploadedImageResult,
  handler: ({ ctx, req }) => upload(ctx, req),
});

/**
 * SPEC.md 7 "Files" (/api/services/app/Files/...). The uploads are multipart/form-data and go
 * straight to REST, not through the gateway, so the whole service is left out of the OpenAPI
 * document that the gateway is built from (docs/decisions.md "Administration: files").
 * Its plugin also serves the embedded storage's files at /uploads/<key>.
 */
export function registerFiles(app: FastifyInstance, ctx: AppContext) {
  app.register(async (files) => {
    files.addHook('onRoute', (route) => { route.schema = { ...route.schema, hide: true }; });
    // Only this plugin parses multipart bodies; the stream is read by the handler, after authorisation.
    await files.register(multipart, { throwFileSizeLimit: true, limits: { fileSize: IMAGE_RULES.maxBytes, files: 1 } });
    service(files, ctx, 'Files', [
      plainUpload('UploadCompanyLogoImage', 'companies.view', "Stores a company's logo; the create or edit form sends the URL."),
      plainUpload('UploadCompanyBannerImage', 'companies.view', "Stores a new company's banner; the create form sends the URL."),
      route({
        method: 'POST', name: 'UploadCompanyBannerImageForExistingCompany', access: 'companies.view',
        summary: "Stores the banner of a company in the caller's scope and sets it (companies.banner_url).",
        query: CompanyIdQuery, result: UploadedImageResult,
        handler: ({ ctx, caller, req, query }) => uploadBannerFor(ctx, caller, req, COMPANY, query.companyId),
      }),
      plainUpload('UploadBrandLogoImage', 'brands.manage', "Stores a brand's logo; the create or edit form sends the URL."),
      plainUpload('UploadBrandBannerImage', 'brands.manage', "Stores a new brand's banner; the create form sends the URL."),
      route({
        method: 'POST', name: 'UploadBrandBannerImageForExistingBrand', access: 'brands.manage',
        summary: "Stores the banner of a brand in the caller's scope and sets it (brands.banner_url).",
        query: BrandIdQuery, result: UploadedImageResult,
        handler: ({ ctx, caller, req, query }) => uploadBannerFor(ctx, caller, req, BRAND, query.brandId),
      }),
      plainUpload('UploadBranchLogoImage', 'branches.manage', "Stores a branch's logo; the create or edit form sends the URL."),
      plainUpload('UploadProductImage', 'menu.manage', "Stores a product image; the product form sends the URL."),
      plainUpload('UploadBrandAdvertisementImage', 'news.manage', "Stores a brand's advertisement image; the news form sends the URL."),
      route({
        method: 'DELETE', name: 'DeleteCompanyBannerImage', access: 'companies.view',
        summary: "Clears the banner of a company in the caller's scope and deletes the file unless another row uses it.",
        query: CompanyIdQuery, result: Type.Boolean(),
        handler: ({ ctx, caller, query }) => deleteBannerOf(ctx, caller, COMPANY, query.companyId),
      }),
      route({
        method: 'DELETE', name: 'DeleteBrandBannerImage', access: 'brands.manage',
        summary: "Clears the banner of a brand in the caller's scope and deletes the file unless another row uses it.",
        query: BrandIdQuery, result: Type.Boolean(),
        handler: ({ ctx, caller, query }) => deleteBannerOf(ctx, caller, BRAND, query.brandId),
      }),
    ]);
    registerUploadsServing(files, ctx);
  });
}
