package quiz

// ru holds the Russian of the package's user-facing strings, keyed by the
// English text (the English is the key itself).
var ru = map[string]string{
	"no answer":                          "нет ответа",
	"one number expected":                "нужен один номер",
	"a step is repeated":                 "шаг повторяется",
	"unit %q does not fit, expected %s":  "единица %q не подходит, ожидалось: %s",
	"unit %q not understood, read as %s": "единица %q не распознана, считаю как: %s",
	"Correct.":                           "Верно.",
	"Partly correct":                     "Частично верно",
	"Wrong.":                             "Неверно.",
	"Could not read the answer: %s":      "Не удалось прочитать ответ: %s",
	"Model answer":                       "Образцовый ответ",
	"See it":                             "Посмотреть вживую",
	"Found":                              "Найдено",
	"Missed":                             "Не хватает",
	"Out of place":                       "Не на своём месте",
	"Not picked":                         "Не выбрано",
	"Wrong picks":                        "Лишние",
	"Your value":                         "Ваше значение",
	"Expected":                           "Ожидалось",
	"Question %d of %d":                  "Вопрос %d из %d",
	"Answer":                             "Ответ",
	"choice number":                      "номер варианта",
	"choice numbers separated by commas or spaces": "номера вариантов через запятую или пробел",
	"step numbers in the right order":              "номера шагов в правильном порядке",
	"a number, optionally with its unit":           "число, можно с единицей",
	"free text on one line":                        "свободный текст в одну строку",
	"Pick the next step":                           "Выберите следующий шаг",
	"Pick all that apply":                          "Выберите все подходящие",
	"Right order":                                  "Правильный порядок",
	"Quiz report":                                  "Итоги квиза",
	"Exam report":                                  "Итоги экзамена",
	"Interrupted; the answers so far are saved.":   "Прервано; ответы сохранены.",
	"Score %s over %d of %d questions.":            "Результат %s по %d из %d вопросов.",
	"Topic":                                        "Тема",
	"Questions":                                    "Вопросы",
	"Score":                                        "Балл",
	"Time per question":                            "Время на вопрос",
	"Question":                                     "Вопрос",
	"Verdict":                                      "Итог",
	"Time":                                         "Время",
	"Your answer":                                  "Ваш ответ",
	"To revisit":                                   "Повторить",
	"correct":                                      "верно",
	"partial":                                      "частично",
	"wrong":                                        "неверно",
	"Quiz progress":                                "Прогресс",
	"%d reviews; streak %d days; %d due now, %d new, %d of %d mastered.": "Ответов: %d; серия дней: %d; к повторению: %d, новых: %d, освоено %d из %d.",
	"Next review due":  "Следующее повторение",
	"Seen":             "Отвечено",
	"Mastered":         "Освоено",
	"Due":              "К повторению",
	"Last score":       "Последний балл",
	"Mastery by topic": "Освоение по темам",
	"Nothing to ask: no question is due and none matches.": "Спрашивать нечего: нет вопросов к повторению или подходящих под фильтр.",
	"Delete all quiz progress in %s?":                      "Удалить весь прогресс квиза в %s?",
	"Quiz progress deleted.":                               "Прогресс квиза удалён.",
	"Question bank":                                        "Банк вопросов",
	"%d questions.":                                        "Вопросов: %d.",
	"Difficulty":                                           "Сложность",
	"Type":                                                 "Тип",
	"%q is not a choice number":                            "%q — не номер варианта",
	"choice %d is not between 1 and %d":                    "варианта %d нет: допустимо от 1 до %d",
	"no choice numbers":                                    "нет номеров вариантов",
	"no number in %q":                                      "в %q нет числа",
	"more than one number in %q":                           "в %q больше одного числа",
	"score":                                                "балл",
}

// msg returns the English key or its Russian translation.
func msg(lang, key string) string {
	if lang == "ru" {
		if s, ok := ru[key]; ok {
			return s
		}
	}
	return key
}

// Msg is msg for the command layer.
func Msg(lang, key string) string { return msg(lang, key) }
