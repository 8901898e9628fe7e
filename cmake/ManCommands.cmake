# cmake -DOUTBOXCTL=<outboxctl> -DTEMPLATE=resources/man/outboxctl.1 -DOUTPUT=<page> -P cmake/ManCommands.cmake
# Writes outboxctl's man page with its command list taken from the program's own table of
# commands (app/outboxctl/commands.cpp), as `outboxctl --help` prints it: the template's one line
# `.\" @COMMAND-LIST@` becomes a `.TP` entry per command, its name in bold and its summary.
# So a command added to the table is listed in the page that ships without a second edit
# (tst_cli_reference checks the built page against `outboxctl --help`).
cmake_minimum_required(VERSION 3.21)
foreach(variable OUTBOXCTL TEMPLATE OUTPUT)
    if(NOT ${variable})
        message(FATAL_ERROR "ManCommands.cmake: -D${variable}= is required")
    endif()
endforeach()

execute_process(COMMAND ${OUTBOXCTL} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "ManCommands.cmake: `${OUTBOXCTL} --help` failed (${status})")
endif()
# One list element a line (a `;` of a summary is not a list separator).
string(REPLACE ";" "\\;" help "${help}")
string(REPLACE "\n" ";" lines "${help}")
set(list "")
set(inside FALSE)
foreach(line IN LISTS lines)
    if(line STREQUAL "Commands:")
        set(inside TRUE)
        continue()
    endif()
    if(NOT inside)
        continue()
    endif()
    if(NOT line MATCHES "^  ([a-z]+)  +(.+)$")
        break() # the block ends at its first line that is no command's
    endif()
    set(name "${CMAKE_MATCH_1}")
    set(summary "${CMAKE_MATCH_2}")
    # roff: a backslash is written \e, a hyphen \-, and a line must not start with . or '.
    string(REPLACE "\\" "\\e" summary "${summary}")
    string(REPLACE "-" "\\-" summary "${summary}")
    string(REGEX REPLACE "^([.'])" "\\\\&\\1" summary "${summary}")
    string(APPEND list ".TP\n.B ${name}\n${summary}\n")
endforeach()
if(list STREQUAL "")
    message(FATAL_ERROR "ManCommands.cmake: no \"Commands:\" block in `${OUTBOXCTL} --help`")
endif()

file(READ ${TEMPLATE} page)
set(marker ".\\\" @COMMAND-LIST@\n")
string(FIND "${page}" "${marker}" at)
if(at LESS 0)
    message(FATAL_ERROR "ManCommands.cmake: ${TEMPLATE} has no line `.\\\" @COMMAND-LIST@`")
endif()
string(REPLACE "${marker}" "${list}" page "${page}")
file(WRITE ${OUTPUT}.new "${page}")
# Rewritten only when it changed, so the compressed page is not made again for nothing.
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
