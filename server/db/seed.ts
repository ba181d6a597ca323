import { sql } from 'drizzle-orm';
import { isEmpty, SCHEMA_LOCK, type Db } from './client';
import * as t from './schema';
import { hashPassword } from '../auth/password';
import { GUEST_USER_ID } from '../../domain/constants';
import { KUWAIT_AREAS } from './kuwaitAreas';
import { postToLedger } from '../loyalty/ledger';
import { seedDemoScans } from './demoScans';

export const DEMO_PASSWORD = '123qwe';

export const DEMO_ACCOUNTS = [
  { id: 1, userName: 'admin', fullName: 'Amal Admin', emailAddress: 'admin@brewops.test', role: 'ADMIN' },
  { id: 2, userName: 'companyadmin', fullName: 'Khaled Company', emailAddress: 'company@brewops.test', role: 'COMPANY_ADMIN', companyId: 1 },
  { id: 3, userName: 'brandmanager', fullName: 'Bader Brand', emailAddress: 'brand@brewops.test', role: 'BRAND_MANAGER', companyId: 1, brandId: 7 },
  { id: 4, userName: 'branchuser', fullName: 'Noura Branch', emailAddress: 'branch@brewops.test', role: 'BRANCH_USER', companyId: 1, brandId: 7, branchId: 1 },
  { id: 5, userName: 'customer', fullName: 'Sara Customer', emailAddress: 'customer@brewops.test', role: 'CUSTOMER', phoneNumber: '+96550000001' },
  // The reviewer roles of SPEC.md 6, one each, at the places of the accounts above (issue 23).
  { id: 6, userName: 'companyreviewer', fullName: 'Huda Reviewer', emailAddress: 'companyreviewer@brewops.test', role: 'COMPANY_REVIEWER', companyId: 1 },
  { id: 7, userName: 'brandreviewer', fullName: 'Fahad Reviewer', emailAddress: 'brandreviewer@brewops.test', role: 'BRAND_REVIEWER', companyId: 1, brandId: 7 },
  { id: 8, userName: 'branchreviewer', fullName: 'Mariam Reviewer', emailAddress: 'branchreviewer@brewops.test', role: 'BRANCH_REVIEWER', companyId: 1, brandId: 7, branchId: 1 },
] as const;

/**
 * Writes the demo data with the spec's fixed ids (brand 7, branch 1, guest 18, payment method 2),
 * once: replicas starting together on an empty database all call this. The transaction takes the
 * migrations' advisory lock and checks for data again under it, so the first writes and the
 * others find the data and write nothing. Answers whether this call wrote it.
 */
export async function seed(db: Db): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK})`);
    if (!(await isEmpty(tx))) return false;

    await tx.insert(t.companyCategories).values([{ id: 1, name: 'Coffee & Café' }, { id: 2, name: 'Bakery' }]);
    await tx.insert(t.companies).values([
      { id: 1, name: 'Mango Hospitality', categoryId: 1 },
      { id: 2, name: 'Dune Foods', categoryId: 2 },
    ]);
    await tx.insert(t.currencies).values([{ id: 1, code: 'KD', name: 'Kuwaiti Dinar', decimals: 3 }]);
    await tx.insert(t.brands).values([
      { id: 7, companyId: 1, name: 'Mango Coffee', nameAr: 'مانجو كوفي', logoUrl: '/images/brands/mango.svg', currencyId: 1 },
      { id: 8, companyId: 2, name: 'Dune Bakery', nameAr: 'مخبز ديون', logoUrl: '/images/brands/dune.svg', currencyId: 1 },
    ]);
    await tx.insert(t.branches).values([
      { id: 1, brandId: 7, name: 'Salmiya', nameAr: 'السالمية', logoUrl: '/images/brands/mango.svg', openTime: '06:00', closeTime: '23:59', branchAddress: 'Salem Al Mubarak St, Block 10, Salmiya', branchAddressAr: 'شارع سالم المبارك، قطعة 10، السالمية', branchPhoneNumber: '+96522200001', deliveryText: 'Delivery in 30–45 minutes', deliveryTextAr: 'التوصيل خلال 30–45 دقيقة', latitude: 29.3339, longitude: 48.0763 },
      { id: 2, brandId: 8, name: 'Kuwait City', nameAr: 'مدينة الكويت', logoUrl: '/images/brands/dune.svg', openTime: '07:00', closeTime: '22:00', branchAddress: 'Fahad Al Salem St, Qibla, Kuwait City', branchAddressAr: 'شارع فهد السالم، القبلة، مدينة الكويت', branchPhoneNumber: '+96522200002', deliveryText: 'Delivery in 40 minutes', deliveryTextAr: 'التوصيل خلال 40 دقيقة', latitude: 29.3759, longitude: 47.9774 },
      { id: 3, brandId: 8, name: 'Jabriya', nameAr: 'الجابرية', logoUrl: '/images/brands/dune.svg', openTime: '07:00', closeTime: '22:00', branchAddress: 'Block 1A, Jabriya', branchAddressAr: 'قطعة 1أ، الجابرية', branchPhoneNumber: '+96522200003', deliveryText: 'Delivery in 35 minutes', deliveryTextAr: 'التوصيل خلال 35 دقيقة', latitude: 29.3219, longitude: 48.0305 },
    ]);
    // Online ordering every day, all day, for the demo branches.
    await tx.insert(t.branchSchedules).values(
      [1, 2, 3].flatMap((branchId) => [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ branchId, dayOfWeek, openTime: '00:00', closeTime: '23:59' }))),
    );

    await tx.insert(t.users).values([
      ...DEMO_ACCOUNTS.map((a) => ({ ...a, passwordHash })),
      // The shop guest: never logs in with a password (TokenAuth/Authenticate asGuest).
      { id: GUEST_USER_ID, userName: 'guest', fullName: 'Guest', role: 'CUSTOMER', isGuest: true, passwordHash: '!' },
    ]);
    // A brand manager's brands, their default one included (docs/decisions.md "Administration: users").
    await tx.insert(t.brandManagers).values(DEMO_ACCOUNTS.flatMap((a) => (a.role === 'BRAND_MANAGER' ? [{ userId: a.id, brandId: a.brandId }] : [])));

    await seedMenu(tx as unknown as Db);

    await tx.insert(t.paymentSystems).values([
      { id: 1, name: 'KNET', nameAr: 'كي نت', provider: 'sandbox', isCard: false },
      { id: 2, name: 'Cash at branch', nameAr: 'الدفع نقدًا في الفرع', provider: 'cash', isCard: false },
      { id: 3, name: 'Tap Card', nameAr: 'بطاقة تاب', provider: 'sandbox', isCard: true },
    ]);
    await tx.insert(t.brandPayments).values([7, 8].flatMap((brandId) => [1, 2, 3].map((paymentSystemId) => ({ brandId, paymentSystemId }))));
    await tx.insert(t.taxes).values([{ brandId: 7, name: 'VAT', percent: '0', isActive: true }]);

    let areaId = 1;
    for (const gov of KUWAIT_AREAS) {
      const govId = areaId++;
      await tx.insert(t.deliveryAreas).values({ id: govId, parentId: null, name: gov.name, nameAr: gov.nameAr, latitude: gov.lat, longitude: gov.lon });
      for (const a of gov.areas) {
        const id = areaId++;
        await tx.insert(t.deliveryAreas).values({ id, parentId: govId, name: a.name, nameAr: a.nameAr, latitude: a.lat, longitude: a.lon });
        for (const brandId of [7, 8]) {
          await tx.insert(t.brandDeliveryFees).values({ brandId, areaId: id, amount: gov.fee, freeAboveAmount: '15.000' });
        }
      }
    }

    const named = (pairs: [string, string][]) => pairs.map(([name, nameAr]) => ({ name, nameAr }));
    await tx.insert(t.carBrands).values(named([['Toyota', 'تويوتا'], ['Nissan', 'نيسان'], ['Lexus', 'لكزس'], ['Chevrolet', 'شيفروليه'], ['GMC', 'جي إم سي'], ['Mercedes-Benz', 'مرسيدس بنز'], ['BMW', 'بي إم دبليو'], ['Kia', 'كيا'], ['Hyundai', 'هيونداي']]));
    await tx.insert(t.carTypes).values(named([['Sedan', 'سيدان'], ['SUV', 'دفع رباعي'], ['Pickup', 'بيك أب'], ['Coupe', 'كوبيه'], ['Hatchback', 'هاتشباك']]));
    await tx.insert(t.carColors).values(named([['White', 'أبيض'], ['Black', 'أسود'], ['Silver', 'فضي'], ['Grey', 'رمادي'], ['Red', 'أحمر'], ['Blue', 'أزرق'], ['Beige', 'بيج']]));

    // The seeded customer's opening points, as a ledger row so the ledger's sum equals the balance.
    await postToLedger(tx, {
      userId: 5, brandId: 7, account: 'points', amount: 120, reason: 'Opening balance',
      reference: { type: 'opening', id: null }, createdBy: null, key: 'opening:5:7:points',
    });

    // Explicit ids above: move every sequence past them.
    for (const table of ['company_categories', 'companies', 'currencies', 'brands', 'branches', 'users', 'product_types', 'product_subtypes', 'products', 'option_groups', 'option_items', 'payment_systems', 'delivery_areas']) {
      await tx.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), greatest((select max(id) from ${table}), 100))`));
    }
    // After the sequences: the demo customers take ids from the users' sequence.
    await seedDemoScans(tx);
    return true;
  });
}

// Every demo name has its Arabic (nameAr), which the shop shows in Arabic (docs/decisions.md "Shop languages").
type OptionSeed = { name: string; nameAr: string; price: string };
type GroupSeed = { name: string; nameAr: string; allowMultiple?: boolean; isRequired?: boolean; options: OptionSeed[] };
type ProductSeed = { name: string; nameAr: string; description: string; descriptionAr: string; price: string; image: string; redeemPoints?: number; groups?: GroupSeed[] };

const SIZE: GroupSeed = { name: 'Size', nameAr: 'الحجم', isRequired: true, options: [{ name: 'Small', nameAr: 'صغير', price: '0' }, { name: 'Medium', nameAr: 'وسط', price: '0.250' }, { name: 'Large', nameAr: 'كبير', price: '0.500' }] };
const MILK: GroupSeed = { name: 'Milk', nameAr: 'الحليب', options: [{ name: 'Full fat', nameAr: 'كامل الدسم', price: '0' }, { name: 'Skimmed', nameAr: 'خالي الدسم', price: '0' }, { name: 'Oat', nameAr: 'حليب الشوفان', price: '0.150' }, { name: 'Almond', nameAr: 'حليب اللوز', price: '0.150' }] };
const EXTRAS: GroupSeed = { name: 'Additions', nameAr: 'الإضافات', allowMultiple: true, options: [{ name: 'Extra shot', nameAr: 'جرعة إسبريسو إضافية', price: '0.200' }, { name: 'Vanilla syrup', nameAr: 'شراب الفانيلا', price: '0.150' }, { name: 'Caramel syrup', nameAr: 'شراب الكراميل', price: '0.150' }, { name: 'Whipped cream', nameAr: 'كريمة مخفوقة', price: '0.100' }] };
const WARM: GroupSeed = { name: 'Serving', nameAr: 'التقديم', isRequired: true, options: [{ name: 'Warmed', nameAr: 'ساخن', price: '0' }, { name: 'As is', nameAr: 'كما هو', price: '0' }] };
const SANDWICH_EXTRAS: GroupSeed = { name: 'Additions', nameAr: 'الإضافات', allowMultiple: true, options: [{ name: 'Extra cheese', nameAr: 'جبن إضافي', price: '0.250' }, { name: 'Avocado', nameAr: 'أفوكادو', price: '0.400' }, { name: 'Turkey', nameAr: 'ديك رومي', price: '0.500' }] };

const MENUS: Record<number, { type: string; typeAr: string; subtypes: { name: string; nameAr: string; products: ProductSeed[] }[] }[]> = {
  7: [
    { type: 'Coffee', typeAr: 'القهوة', subtypes: [
      { name: 'Hot Coffee', nameAr: 'قهوة ساخنة', products: [
        { name: 'Espresso', nameAr: 'إسبريسو', description: 'A double shot of our house blend, rich and syrupy.', descriptionAr: 'جرعة مزدوجة من خلطتنا الخاصة، غنية وكثيفة.', price: '0.900', image: 'espresso', redeemPoints: 100, groups: [EXTRAS] },
        { name: 'Cappuccino', nameAr: 'كابتشينو', description: 'Espresso with steamed milk and a deep layer of foam.', descriptionAr: 'إسبريسو مع حليب مبخّر وطبقة كثيفة من الرغوة.', price: '1.250', image: 'cappuccino', redeemPoints: 150, groups: [SIZE, MILK, EXTRAS] },
        { name: 'Spanish Latte', nameAr: 'سبانش لاتيه', description: 'Espresso, condensed milk and silky steamed milk.', descriptionAr: 'إسبريسو مع حليب مكثّف وحليب مبخّر ناعم.', price: '1.500', image: 'latte', groups: [SIZE, MILK, EXTRAS] },
        { name: 'Flat White', nameAr: 'فلات وايت', description: 'Ristretto shots with thin, velvety milk.', descriptionAr: 'جرعات ريستريتو مع حليب مخملي خفيف.', price: '1.350', image: 'flatwhite', groups: [SIZE, MILK] },
      ] },
      { name: 'Iced Coffee', nameAr: 'قهوة مثلجة', products: [
        { name: 'Iced Latte', nameAr: 'لاتيه مثلج', description: 'Espresso over ice with cold milk.', descriptionAr: 'إسبريسو على الثلج مع حليب بارد.', price: '1.500', image: 'icedlatte', groups: [SIZE, MILK, EXTRAS] },
        { name: 'Cold Brew', nameAr: 'كولد برو', description: 'Steeped for 18 hours, smooth and low in acidity.', descriptionAr: 'منقوعة لمدة 18 ساعة، ناعمة وقليلة الحموضة.', price: '1.750', image: 'coldbrew', groups: [SIZE, EXTRAS] },
      ] },
    ] },
    { type: 'Food', typeAr: 'الطعام', subtypes: [
      { name: 'Pastries', nameAr: 'المعجنات', products: [
        { name: 'Butter Croissant', nameAr: 'كرواسون بالزبدة', description: 'Baked every morning with French butter.', descriptionAr: 'يُخبز كل صباح بالزبدة الفرنسية.', price: '0.750', image: 'croissant', groups: [WARM] },
        { name: 'Pistachio Cookie', nameAr: 'كوكيز بالفستق', description: 'Chewy cookie with Iranian pistachio.', descriptionAr: 'كوكيز طرية بالفستق الإيراني.', price: '0.650', image: 'cookie' },
      ] },
      { name: 'Sandwiches', nameAr: 'السندويشات', products: [
        { name: 'Halloumi Sandwich', nameAr: 'ساندويتش حلومي', description: 'Grilled halloumi, tomato, mint and zaatar on sourdough.', descriptionAr: 'حلومي مشوي مع الطماطم والنعناع والزعتر على خبز العجين المخمّر.', price: '1.900', image: 'sandwich', groups: [WARM, SANDWICH_EXTRAS] },
      ] },
    ] },
  ],
  8: [
    { type: 'Bakery', typeAr: 'المخبوزات', subtypes: [
      { name: 'Breads', nameAr: 'الخبز', products: [
        { name: 'Sourdough Loaf', nameAr: 'رغيف العجين المخمّر', description: 'Naturally leavened country loaf.', descriptionAr: 'رغيف ريفي مخمّر طبيعيًا.', price: '1.800', image: 'bread' },
        { name: 'Zaatar Manakeesh', nameAr: 'مناقيش زعتر', description: 'Flatbread with zaatar and olive oil.', descriptionAr: 'خبز مسطّح بالزعتر وزيت الزيتون.', price: '0.600', image: 'manakeesh', groups: [WARM] },
      ] },
      { name: 'Sweets', nameAr: 'الحلويات', products: [
        { name: 'Date Cake', nameAr: 'كيكة التمر', description: 'Sticky date cake with toffee sauce.', descriptionAr: 'كيكة تمر طرية مع صلصة التوفي.', price: '1.250', image: 'cake' },
      ] },
    ] },
    { type: 'Drinks', typeAr: 'المشروبات', subtypes: [
      { name: 'Tea', nameAr: 'الشاي', products: [
        { name: 'Karak Tea', nameAr: 'شاي كرك', description: 'Strong tea brewed with milk, cardamom and saffron.', descriptionAr: 'شاي قوي مطبوخ بالحليب والهيل والزعفران.', price: '0.350', image: 'karak', groups: [SIZE] },
      ] },
    ] },
  ],
};

async function seedMenu(db: Db) {
  for (const [brandIdText, types] of Object.entries(MENUS)) {
    const brandId = Number(brandIdText);
    for (const [ti, type] of types.entries()) {
      const [pt] = await db.insert(t.productTypes).values({ brandId, name: type.type, nameAr: type.typeAr, sortOrder: ti }).returning();
      for (const [si, sub] of type.subtypes.entries()) {
        const [ps] = await db.insert(t.productSubtypes).values({ typeId: pt.id, name: sub.name, nameAr: sub.nameAr, sortOrder: si }).returning();
        for (const [pi, p] of sub.products.entries()) {
          const img = (n: number) => `/images/products/${p.image}${n > 1 ? `-${n}` : ''}.svg`;
          const [product] = await db.insert(t.products).values({
            brandId, subtypeId: ps.id, name: p.name, nameAr: p.nameAr, description: p.description, descriptionAr: p.descriptionAr, price: p.price, sortOrder: pi,
            productImage: img(1), productSecondImage: img(2), productThirdImage: img(3), redeemPoints: p.redeemPoints ?? null,
            productDeliveryText: 'Ready in about 10 minutes', productDeliveryTextAr: 'جاهز خلال 10 دقائق تقريبًا',
          }).returning();
          for (const [gi, g] of (p.groups ?? []).entries()) {
            const [group] = await db.insert(t.optionGroups).values({
              brandId, productId: product.id, name: g.name, nameAr: g.nameAr, allowMultiple: !!g.allowMultiple, isRequired: !!g.isRequired, sortOrder: gi,
            }).returning();
            await db.insert(t.optionItems).values(g.options.map((o, oi) => ({ groupId: group.id, name: o.name, nameAr: o.nameAr, price: o.price, sortOrder: oi })));
          }
        }
      }
    }
  }
}
