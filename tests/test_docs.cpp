// Every C++ and CMake code block in README.md and docs/ is a snippet of a compiled example or
// test, or of a tested CMake project, and equal to it: a block is preceded by
// `<!-- snippet: PATH#NAME -->` and the source marks the snippet with `//[NAME` ... `//]`
// (in CMake, `#[NAME` ... `#]`). (scripts/update-doc-snippets.py rewrites the blocks.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> lines_of(fs::path const& p) {
    std::ifstream in(p);
    REQUIRE(in);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string trimmed(std::string const& s) {
    auto const first = s.find_first_not_of(" \t");
    return first == std::string::npos ? "" : s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// The lines between `//[name` and `//]` (`#[name` and `#]`), with their common indentation removed.
std::vector<std::string> snippet(fs::path const& source, std::string const& name) {
    auto const lines = lines_of(source);
    auto const open = std::find_if(lines.begin(), lines.end(), [&](auto const& l) {
        return trimmed(l) == "//[" + name || trimmed(l) == "#[" + name;
    });
    REQUIRE(open != lines.end());
    auto const close = std::find_if(open + 1, lines.end(), [](auto const& l) { return trimmed(l) == "//]" || trimmed(l) == "#]"; });
    REQUIRE(close != lines.end());
    std::vector<std::string> body(open + 1, close);
    std::size_t indent = std::string::npos;
    for (auto const& l : body)
        if (!trimmed(l).empty()) indent = std::min(indent, l.find_first_not_of(' '));
    for (auto& l : body) l = l.size() >= indent ? l.substr(indent) : "";
    return body;
}

}  // namespace

TEST_CASE("every code block in docs/ is a compiled snippet, unchanged", "[docs]") {
    fs::path const root = CASSETTE_SOURCE_DIR;
    std::regex const marker(R"(<!-- snippet: (\S+)#(\S+) -->)");
    int blocks = 0;
    std::vector<fs::path> pages{root / "README.md"};
    for (auto const& entry : fs::directory_iterator(root / "docs"))
        if (entry.path().extension() == ".md") pages.push_back(entry.path());
    for (auto const& page : pages) {
        auto const lines = lines_of(page);
        for (std::size_t i = 0; i != lines.size(); ++i) {
            if (lines[i].rfind("```cpp", 0) != 0 && lines[i].rfind("```cmake", 0) != 0) continue;
            INFO(page.filename().string() << ':' << i + 1);
            std::smatch m;
            REQUIRE(i > 0);
            REQUIRE(std::regex_search(lines[i - 1], m, marker));
            std::size_t end = i + 1;
            while (end < lines.size() && lines[end] != "```") ++end;
            std::vector<std::string> const block(lines.begin() + long(i) + 1, lines.begin() + long(end));
            CHECK(block == snippet(root / m[1].str(), m[2].str()));
            ++blocks;
        }
    }
    CHECK(blocks > 0);
}
