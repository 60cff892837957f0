/**
 * The shop's catalogue seed: 5 categories and 40 products. Kept as pipe-separated tables so that one product is
 * one line; prices are distinct so that "the cheapest ..." questions have one answer.
 */
import type { Row } from "../../db.ts";

export const CATEGORIES: Row[] = [
  { id: 1, slug: "audio", name: "Audio", blurb: "Headphones, speakers and turntables." },
  { id: 2, slug: "computing", name: "Computing", blurb: "Keyboards, mice, monitors and desk gear." },
  { id: 3, slug: "home-kitchen", name: "Home & Kitchen", blurb: "Coffee gear, cookware and smart lighting." },
  { id: 4, slug: "outdoor", name: "Outdoor", blurb: "Tents, packs and camp kit." },
  { id: 5, slug: "apparel", name: "Apparel", blurb: "Jackets, tees, trousers and shoes." },
];

// id | category id | name | brand | price | stock | sizes | colours
const PRODUCT_TABLE = `
1|1|Sonora Studio Headphones|Sonora|149.00|14||Black,Silver
2|1|Vexa Buds Pro|Vexa|89.99|32||
3|1|Auralis Bookshelf Speakers|Auralis|229.00|6||
4|1|Sonora Go Portable Speaker|Sonora|59.50|0||
5|1|Vexa Soundbar 300|Vexa|279.99|9||
6|1|Auralis Turntable T1|Auralis|319.00|3||
7|1|Sonora Sport Earphones|Sonora|34.99|41||
8|1|Vexa Desk Microphone|Vexa|74.00|18||
9|2|Keystone K2 Mechanical Keyboard|Keystone|119.00|22||
10|2|Keystone Glide Mouse|Keystone|39.90|57||
11|2|Lumio 27-inch 4K Monitor|Lumio|389.00|7||
12|2|Vexa USB-C Dock|Vexa|129.50|0||
13|2|Lumio Webcam HD|Lumio|64.99|25||
14|2|Keystone Laptop Stand|Keystone|45.00|30||
15|2|Vexa 1TB Portable SSD|Vexa|99.00|16||
16|2|Lumio Monitor Light Bar|Lumio|54.25|12||
17|3|Brewell Pour-Over Kettle|Brewell|69.00|11||
18|3|Brewell Burr Grinder|Brewell|134.00|5||
19|3|Hearthly Cast Iron Skillet|Hearthly|42.50|19||
20|3|Hearthly Chef's Knife|Hearthly|79.95|8||
21|3|Brewell Espresso Machine Duo|Brewell|449.00|2||
22|3|Hearthly Linen Apron|Hearthly|24.00|36||
23|3|Lumio Smart Bulb 4-Pack|Lumio|49.00|0||
24|3|Hearthly Bamboo Cutting Board|Hearthly|29.50|27||
25|4|Northpeak Ridge 2 Tent|Northpeak|259.00|4||
26|4|Trailcraft Daypack 24L|Trailcraft|84.00|15||Olive,Slate,Rust
27|4|Northpeak Down Sleeping Bag|Northpeak|199.00|6||
28|4|Trailcraft Insulated Bottle|Trailcraft|27.95|48||
29|4|Northpeak Trekking Poles|Northpeak|64.00|0||
30|4|Trailcraft Camp Stove|Trailcraft|54.99|13||
31|4|Northpeak Headlamp 400|Northpeak|32.00|29||
32|4|Trailcraft Hammock Lite|Trailcraft|44.90|10||
33|5|Northpeak Storm Jacket|Northpeak|179.00|12|S,M,L,XL|Navy,Red
34|5|Urbanloom Merino Tee|Urbanloom|48.00|40|XS,S,M,L,XL|Black,Grey,Forest
35|5|Trailcraft Trail Runner 2|Trailcraft|124.00|18|40,41,42,43,44,45|Blue,Black
36|5|Urbanloom Chino Trousers|Urbanloom|69.50|21|28,30,32,34,36|
37|5|Northpeak Fleece Pullover|Northpeak|89.00|0|S,M,L,XL|
38|5|Urbanloom Wool Beanie|Urbanloom|22.00|55||
39|5|Urbanloom Rain Parka|Urbanloom|149.50|7|S,M,L|
40|5|Trailcraft Hiking Socks 3-Pack|Trailcraft|19.99|60|S,M,L|
`;

// id | description | specifications ("Key: value; Key: value")
const DETAIL_TABLE = `
1|Closed-back studio headphones with a flat, detailed sound and memory-foam ear cushions for long sessions.|Driver: 45 mm dynamic; Impedance: 32 ohm; Cable: 3 m coiled, detachable; Weight: 290 g
2|True wireless earbuds with active noise cancelling, transparency mode and a pocketable charging case.|Battery: 8 h (32 h with case); Noise cancelling: Active; Water resistance: IPX4; Bluetooth: 5.3
3|A pair of two-way passive bookshelf speakers with a warm midrange and a front bass port.|Woofer: 5.25 in; Tweeter: 1 in silk dome; Power handling: 100 W; Weight: 5.8 kg per pair
4|A rugged palm-sized Bluetooth speaker that floats and survives a drop onto the trail.|Battery: 12 h; Water resistance: IP67; Output: 10 W; Weight: 540 g
5|A slim 3.1-channel soundbar with a wireless subwoofer and a dialogue-enhance mode.|Channels: 3.1; Output: 300 W; Inputs: HDMI eARC, optical; Width: 98 cm
6|A belt-drive turntable with a built-in phono stage and a pre-mounted cartridge.|Drive: Belt; Speeds: 33 1/3 and 45 rpm; Phono stage: Built-in, switchable; Weight: 4.9 kg
7|Light sweat-proof earphones with ear hooks that stay put on a run.|Battery: 10 h; Water resistance: IPX5; Bluetooth: 5.2; Weight: 24 g
8|A USB condenser microphone for calls, streams and podcasts, with a headphone jack for monitoring.|Pattern: Cardioid; Sample rate: 48 kHz / 24-bit; Connection: USB-C; Weight: 410 g
9|A compact tenkeyless mechanical keyboard with hot-swappable switches and white backlight.|Layout: Tenkeyless (87 keys); Switches: Tactile brown, hot-swap; Connection: USB-C and Bluetooth; Battery: 4000 mAh
10|A quiet wireless mouse shaped for all-day comfort, with a fast-scrolling wheel.|Sensor: 4000 DPI optical; Buttons: 6; Battery: 70 days (AA); Weight: 96 g
11|A 27-inch 4K IPS monitor with factory colour calibration and USB-C power delivery.|Panel: 27 in IPS; Resolution: 3840 x 2160; Refresh rate: 60 Hz; USB-C power: 65 W
12|A 9-in-1 USB-C dock that drives two displays from one cable.|Ports: 2x HDMI, 3x USB-A, USB-C, SD, microSD, Ethernet; Power pass-through: 100 W; Cable: 1 m
13|A 1080p webcam with a privacy shutter and dual noise-reducing microphones.|Resolution: 1080p at 30 fps; Field of view: 90 degrees; Microphones: Dual; Mount: Clip and tripod thread
14|A folding aluminium laptop stand with six height settings.|Material: Aluminium; Heights: 6 settings; Fits: 10 to 16 in laptops; Weight: 310 g
15|A pocket-sized 1TB SSD in a drop-resistant shell.|Capacity: 1 TB; Read speed: 1050 MB/s; Connection: USB-C 3.2; Weight: 52 g
16|A monitor light bar that lights the desk without glare on the screen.|Power: USB-C, 5 W; Colour temperature: 2700 to 6500 K; Fits: Monitors 1 to 3 cm thick; Length: 45 cm
17|A gooseneck electric kettle with temperature hold for pour-over coffee and tea.|Capacity: 0.9 L; Temperature range: 40 to 100 C; Hold: 60 min; Power: 1200 W
18|A conical burr grinder with 40 grind settings from espresso to French press.|Burrs: 40 mm conical steel; Settings: 40; Hopper: 250 g; Power: 150 W
19|A pre-seasoned 26 cm cast iron skillet that goes from hob to oven.|Diameter: 26 cm; Material: Cast iron, pre-seasoned; Oven safe: Yes; Weight: 2.4 kg
20|A 20 cm chef's knife forged from one piece of German steel.|Blade: 20 cm; Steel: X50CrMoV15; Hardness: 56 HRC; Handle: Pakkawood
21|A dual-boiler espresso machine with a PID controller and a commercial-style steam wand.|Boilers: Dual; Pump pressure: 15 bar; Water tank: 2.5 L; Power: 1800 W
22|A stonewashed linen apron with two deep pockets and adjustable ties.|Material: 100% linen; Length: 85 cm; Pockets: 2; Care: Machine wash 40 C
23|Four dimmable colour smart bulbs that work with the major voice assistants.|Fitting: E27; Brightness: 800 lm each; Colours: 16 million; Connection: Wi-Fi
24|A reversible bamboo cutting board with a juice groove on one side.|Size: 45 x 30 cm; Thickness: 2 cm; Material: Bamboo; Care: Hand wash
25|A freestanding two-person three-season tent that pitches in five minutes.|Capacity: 2 people; Seasons: 3; Packed weight: 2.1 kg; Doors: 2
26|A 24-litre daypack with a ventilated back panel and a hydration sleeve.|Volume: 24 L; Back panel: Ventilated mesh; Hydration sleeve: Yes; Weight: 780 g
27|A 650-fill down mummy bag rated for nights down to minus five.|Comfort rating: 0 C; Limit rating: -5 C; Fill: 650 fill-power down; Weight: 1.1 kg
28|A double-walled steel bottle that keeps drinks cold for a day.|Capacity: 750 ml; Cold: 24 h; Hot: 12 h; Weight: 380 g
29|Collapsible aluminium trekking poles with cork grips and flick locks.|Length: 105 to 135 cm; Material: Aluminium; Grip: Cork; Weight: 520 g per pair
30|A compact canister stove that boils a litre of water in four minutes.|Fuel: Isobutane canister; Boil time: 4 min per litre; Output: 3000 W; Weight: 85 g
31|A rechargeable 400-lumen headlamp with a red night-vision mode.|Brightness: 400 lm; Battery: 1500 mAh rechargeable; Water resistance: IPX4; Weight: 78 g
32|An ultralight parachute-nylon hammock with tree straps included.|Load: 150 kg; Size: 270 x 140 cm; Material: Parachute nylon; Weight: 420 g
33|A three-layer waterproof jacket with pit zips and a helmet-compatible hood.|Waterproof rating: 20000 mm; Breathability: 20000 g/m2; Fabric: 3-layer; Weight: 410 g
34|A soft 150 gsm merino tee that stays fresh on multi-day trips.|Fabric: 100% merino wool, 150 gsm; Fit: Regular; Care: Machine wash cold; Origin: Portugal
35|A cushioned trail running shoe with a grippy lugged outsole.|Drop: 6 mm; Lugs: 4 mm; Weight: 290 g (size 42); Upper: Recycled mesh
36|Stretch cotton chinos with a tapered leg for work and weekends.|Fabric: 98% cotton, 2% elastane; Fit: Tapered; Inseam: 81 cm; Care: Machine wash 30 C
37|A midweight fleece pullover with a half zip and a chest pocket.|Fabric: 100% recycled polyester fleece; Weight: 300 gsm; Zip: Half; Pockets: 1 chest
38|A ribbed beanie knitted from soft lambswool.|Material: 100% lambswool; Size: One size; Care: Hand wash; Origin: Scotland
39|A long, seam-sealed rain parka that covers a suit jacket.|Waterproof rating: 10000 mm; Length: Mid-thigh; Hood: Adjustable, packable; Weight: 620 g
40|Three pairs of cushioned merino-blend hiking socks.|Fabric: 60% merino, 37% nylon, 3% elastane; Cushioning: Medium; Pairs: 3; Height: Crew
`;

/** The pipe table's rows as cells, blank lines skipped. */
function cells(table: string): string[][] {
  return table.trim().split("\n").map((line) => line.split("|"));
}

const CATEGORY_CODE: Record<number, string> = { 1: "AUD", 2: "CMP", 3: "HOM", 4: "OUT", 5: "APP" };

/** The 40 products, each with its SKU, description and specifications. */
export function seedProducts(): Row[] {
  const details = new Map(cells(DETAIL_TABLE).map(([id, description, specs]) => [Number(id), { description, specs }]));
  return cells(PRODUCT_TABLE).map(([id, cat, name, brand, price, stock, sizes, colours]) => {
    const detail = details.get(Number(id));
    if (!detail) throw new Error(`shop seed: product ${id} has no description line`);
    return {
      id: Number(id),
      category_id: Number(cat),
      sku: `${CATEGORY_CODE[Number(cat)]}-${id.padStart(4, "0")}`,
      name,
      brand,
      price: Number(price),
      stock: Number(stock),
      sizes,
      colours,
      description: detail.description,
      specs: detail.specs,
    };
  });
}
