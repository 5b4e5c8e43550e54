import { DateSchema, EmailSchema, ModuleSchema } from '@erp/contract';
import { z } from 'zod';

const name = z.string().trim().min(1).max(200);
const phone = z
  .string()
  .trim()
  .max(50)
  .regex(/^\+?[0-9 ().-]{3,}$/, 'digits, spaces, + ( ) . - only');
/** The honeypot: invisible to people, filled by bots. */
const website = z.string().max(500).optional();

/** `POST /api/contact`. */
export const ContactFormSchema = z.strictObject({
  name,
  email: EmailSchema,
  company: z.string().trim().max(200).optional(),
  phone: phone.optional(),
  message: z.string().trim().min(1).max(5000),
  website,
});
export type ContactForm = z.infer<typeof ContactFormSchema>;

/** `POST /api/demo`. A form sends one `modules_wanted` per ticked box (or none, or one). */
export const DemoFormSchema = z.strictObject({
  name,
  email: EmailSchema,
  company: z.string().trim().min(1).max(200),
  phone: phone.optional(),
  team_size: z.coerce.number().int().min(1).max(1_000_000).optional(),
  modules_wanted: z
    .preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(ModuleSchema).max(20))
    .optional(),
  preferred_date: DateSchema.optional(),
  message: z.string().trim().max(5000).optional(),
  website,
});
export type DemoForm = z.infer<typeof DemoFormSchema>;
