// Whole numbers with their digits grouped in threes ("30 000", "194,808"). Not toLocaleString:
// its first call loads ICU's number formatting, 15–25 ms that pitwall's start paid for one tool
// description.

export function groupDigits(value: number, separator = ","): string {
  const digits = String(Math.trunc(Math.abs(value)));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, separator);
  return value < 0 ? `-${grouped}` : grouped;
}
