package quiz

import (
	"strconv"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
)

// ru holds the Russian of the package's user-facing strings, keyed by the
// English text (the English is the key itself).
func ru() map[string]string {
	return map[string]string{
		// Fragments of the survey library's templates (survey.go).
		"[Use arrows to move, space to select,":                   "[стрелки — перейти, пробел — отметить,",
		"[Use arrows to move, enter to select, type to continue]": "[стрелки — перейти, Enter — выбрать, печатайте дальше]",
		"[Use arrows to move, type to filter":                     "[стрелки — перейти, печатайте для фильтра",
		" <right> to all,":                                        " → все,",
		" <left> to none,":                                        " ← ни одного,",
		" type to filter":                                         " печатайте для фильтра",
		" for more help":                                          " — подсказка",
		" for help":                                               " — подсказка",
		"{1:# question|# questions}":                              "{1:# вопрос|# вопроса|# вопросов}",
		"{1:# review|# reviews}; streak {2:# day|# days}; {3} due now, {4} new, {5} of {6} mastered.": "Ответов: {1}; серия: {2:# день|# дня|# дней}; к повторению: {3}, новых: {4}, освоено {5} из {6}.",
		"Tasks":                                "Задачи",
		"Hands-on tasks (k8sexplain task)":     "Практические задачи (k8sexplain task)",
		"no answer":                            "нет ответа",
		"one number expected":                  "нужен один номер",
		"a step is repeated":                   "шаг повторяется",
		"unit {1} does not fit, expected {2}":  "единица {1} не подходит, ожидалось: {2}",
		"unit {1} not understood, read as {2}": "единица {1} не распознана, считаю как: {2}",
		"Correct.":                             "Верно.",
		"Partly correct":                       "Частично верно",
		"Wrong.":                               "Неверно.",
		"Could not read the answer: {1}":       "Не удалось прочитать ответ: {1}",
		"Model answer":                         "Образцовый ответ",
		"See it":                               "Посмотреть вживую",
		"the answer in progress is dropped when time runs out": "недописанный ответ не засчитается, когда время выйдет",
		"Look for": "Что искать",
		"Docs":     "Документация",
		"Found":    "Найдено",
		"Time is up: {1:# question|# questions} not reached.":                      "Время вышло: {1:# вопрос|# вопроса|# вопросов} без ответа.",
		"Verdict against the senior bar (80%; unanswered questions count 0): {1}.": "Итог относительно планки senior (80%; вопросы без ответа считаются за 0): {1}.",
		"verdict senior":             "на уровне senior",
		"verdict borderline":         "на грани",
		"verdict below":              "ниже планки senior",
		"Senior bar":                 "Планка senior",
		"Model answers":              "Образцовые ответы",
		"Again — did not know it":    "Снова — не знал",
		"Hard — partly, with gaps":   "Трудно — частично, с пробелами",
		"Good — knew the key points": "Хорошо — знал ключевое",
		"Easy — knew it all":         "Легко — знал всё",
		"How well did you know it? (the automatic rating is preselected)": "Насколько хорошо вы это знали? (выбрана автоматическая оценка)",
		"Could not read the answer: {1}. Please answer with: {2}.":        "Не удалось прочитать ответ: {1}. Ответьте так: {2}.",
		"{1} left":               "осталось {1}",
		"A pass, not full marks": "Зачёт, но не полный балл",
		"misconception":          "заблуждение",
		"not recognised: compare with the model answer":              "не распознано: сравните с образцовым ответом",
		"Key points ({1} of {2} recognised, {3} needed for a pass):": "Ключевые пункты (распознано {1} из {2}, для зачёта нужно {3}):",
		"Key points ({1} needed for a pass):":                        "Ключевые пункты (для зачёта нужно {1}):",
		"The model answer, as asked: compare and rate yourself.":     "Образцовый ответ, как вы просили: сравните и оцените себя сами.",
		"Wrong: the answer states a misconception.":                  "Неверно: в ответе есть заблуждение.",
		"Some key points recognised":                                 "Распознана часть ключевых пунктов",
		"No key point recognised: compare with the model answer.":    "Ключевые пункты не распознаны: сравните с образцовым ответом.",
		"Hard — I guessed":                                           "Трудно — угадал",
		"Your rating: {1} (suggested: {2}).":                         "Ваша оценка: {1} (предложено: {2}).",
		"pass":                                                       "зачёт",
		"revealed":                                                   "показан ответ",
		"Grader":                                                     "Оценщик",
		"free text, several lines allowed; nothing or ? shows the model answer": "свободный текст, можно в несколько строк; пустой ответ или ? покажет образцовый ответ",
		"[Enter 2 empty lines to finish]":                                       "[Enter на двух пустых строках — закончить]",
		"Right answer":                                                          "Правильный ответ",
		"Right answers":                                                         "Правильные ответы",
		"not right here; see the model answer":                                  "здесь неверно; см. образцовый ответ",
		"Why your pick is wrong":                                                "Почему выбранное неверно",
		"Missed":                                                                "Не хватает",
		"Out of place":                                                          "Не на своём месте",
		"Not picked":                                                            "Не выбрано",
		"Wrong picks":                                                           "Лишние",
		"Your value":                                                            "Ваше значение",
		"Expected":                                                              "Ожидалось",
		"Question {1} of {2}":                                                   "Вопрос {1} из {2}",
		"Answer":                                                                "Ответ",
		"choice number":                                                         "номер варианта",
		"choice numbers separated by commas or spaces": "номера вариантов через запятую или пробел",
		"step numbers in the right order":              "номера шагов в правильном порядке",
		"a number, optionally with its unit":           "число, можно с единицей",
		"free text on one line":                        "свободный текст в одну строку",
		"free text on one line here (several lines in an answers file or on a terminal); an empty line or ? shows the model answer": "свободный текст, здесь в одну строку (в файле ответов и в терминале — в несколько); пустая строка или ? покажет образцовый ответ",
		"Pick the next step":  "Выберите следующий шаг",
		"Pick all that apply": "Выберите все подходящие",
		"Right order":         "Правильный порядок",
		"Quiz report":         "Итоги квиза",
		"Exam report":         "Итоги экзамена",
		"Interrupted; the answers so far are saved.":        "Прервано; ответы сохранены.",
		"Score {1} over {2} of {3:# question|# questions}.": "Результат {1} по {2} из {3:# вопроса|# вопросов|# вопросов}.",
		"Topic":             "Тема",
		"Questions":         "Вопросы",
		"Score":             "Балл",
		"Time per question": "Время на вопрос",
		"Question":          "Вопрос",
		"Verdict":           "Итог",
		"Time":              "Время",
		"Your answer":       "Ваш ответ",
		"To revisit":        "Повторить",
		"correct":           "верно",
		"partial":           "частично",
		"wrong":             "неверно",
		"Quiz progress":     "Прогресс",
		"Next review due":   "Следующее повторение",
		"Seen":              "Отвечено",
		"Mastered":          "Освоено",
		"Due":               "К повторению",
		"Last score":        "Последний балл",
		"Mastery by topic":  "Освоение по темам",
		"Nothing to ask: no question is due and none matches.": "Спрашивать нечего: нет вопросов к повторению или подходящих под фильтр.",
		"Delete all quiz progress in {1}?":                     "Удалить весь прогресс квиза в {1}?",
		"Quiz progress deleted.":                               "Прогресс квиза удалён.",
		"Question bank":                                        "Банк вопросов",
		"{1} questions.":                                       "Вопросов: {1}.",
		"Difficulty":                                           "Сложность",
		"Type":                                                 "Тип",
		"{1} is not a choice number":                           "{1} — не номер варианта",
		"choice {1} is not between 1 and {2}":                  "варианта {1} нет: допустимо от 1 до {2}",
		"no choice numbers":                                    "нет номеров вариантов",
		"no number in {1}":                                     "в {1} нет числа",
		"more than one number in {1}":                          "в {1} больше одного числа",
		"score":                                                "балл",
	}
}

// texts is the package's catalogue: the English text is the key itself
// (the English catalogue is built from the keys of the Russian one), with
// {1}, {2}, … for the arguments (l10n.Catalog).
var texts = l10n.LazyCatalog(func() (map[string]string, map[string]string) {
	m := ru()
	return identity(m), m
})

func identity(m map[string]string) map[string]string {
	en := make(map[string]string, len(m))
	for k := range m {
		en[k] = k
	}
	return en
}

// msg returns the English key or its Russian translation.
func msg(lang, key string) string {
	if s, ok := texts.Msg(lang, key); ok {
		return s
	}
	return key
}

// msgf is msg with the key's placeholders filled from args.
func msgf(lang, key string, args ...any) string {
	return l10n.Format(lang, msg(lang, key), func(name string) (any, bool) {
		i, err := strconv.Atoi(name)
		if err != nil || i < 1 || i > len(args) {
			return nil, false
		}
		return args[i-1], true
	})
}

// Msg is msg for the command layer.
func Msg(lang, key string) string { return msg(lang, key) }

// Msgf is msgf for the command layer.
func Msgf(lang, key string, args ...any) string { return msgf(lang, key, args...) }
