pragma solidity ^0.8.0;

contract Packed {
    function high(uint256 word) external pure returns (address a) {
        assembly {
            a := shr(word, 96) // expect: incorrect-shift
        }
    }

    function highOk(uint256 word) external pure returns (address a, uint256 m) {
        assembly {
            a := shr(96, word)
            m := shl(8, 0xff)
        }
    }

    function gone(uint256 word) external pure returns (uint256 r) {
        assembly {
            r := shl(256, word) // expect: incorrect-shift
        }
    }
}

contract Powers {
    function pow2(uint256 x) external pure returns (uint256 r) {
        assembly {
            r := shl(x, 1)
        }
    }
}
